import { Logger } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import type { MailMessage, MailSender } from './mail.port';

/** How long a send may wait for the SMTP server (connect, greeting, idle socket) before it fails: a dead server must not hold a sign-up. */
const SMTP_TIMEOUT_MS = 10_000;

/** Sends through an SMTP server (`SMTP_URL`, e.g. smtps://user:pass@smtp.example.org:465). Never logs links or tokens. */
export class SmtpMailSender implements MailSender {
  private readonly logger = new Logger('Mail');
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = createTransport({
      url: smtpUrl,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    } as Parameters<typeof createTransport>[0]);
  }

  async send(m: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: m.to, subject: m.subject, text: m.text });
    this.logger.log(`mail "${m.subject}" sent by SMTP`);
  }
}

import { Module } from '@nestjs/common';
import { join } from 'node:path';
import { APP_CONFIG, type AppConfig } from '@gaia/shared/config';
import { MAIL_SENDER, type MailSender } from './mail.port';
import { MailboxMailSender } from './mailbox-mail.adapter';
import { SmtpMailSender } from './smtp-mail.adapter';

/** Subfolder of DATA_DIR that holds the embedded mailbox. */
export const MAILBOX_DIR = 'mailbox';

/** Sender when MAIL_FROM is not in the app's config groups. */
const DEFAULT_FROM = 'Gaia <no-reply@localhost>';

export function createMailSender(config: Pick<AppConfig, 'SMTP_URL' | 'MAIL_FROM' | 'DATA_DIR'>): MailSender {
  const from = config.MAIL_FROM ?? DEFAULT_FROM;
  return config.SMTP_URL ? new SmtpMailSender(config.SMTP_URL, from) : new MailboxMailSender(join(config.DATA_DIR, MAILBOX_DIR), from);
}

/** MAIL_SENDER from the validated config: SMTP when SMTP_URL is set, else the mailbox folder under DATA_DIR. */
@Module({
  providers: [{ provide: MAIL_SENDER, inject: [APP_CONFIG], useFactory: (c: AppConfig) => createMailSender(c) }],
  exports: [MAIL_SENDER],
})
export class MailModule {}

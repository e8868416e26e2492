/** One message with the single link it is about (verification, invitation). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The action link inside the message. Only the embedded mailbox logs it (offline development). */
  link: string;
}

/** Sends mail: SMTP when SMTP_URL is set, else the embedded mailbox folder under DATA_DIR. */
export interface MailSender {
  send(message: MailMessage): Promise<void>;
}
export const MAIL_SENDER = Symbol('MAIL_SENDER');

export * from './mail.port';
export * from './mail.module';
export * from './smtp-mail.adapter';
export * from './mailbox-mail.adapter';

import type { SchemaBundle } from '@gaia/shared/database';
import { MessagingInit1767000000000 } from './migrations/1767000000000-messaging-init';
import { MessagingLeaseHolders1767951200000 } from './migrations/1767951200000-messaging-lease-holders';

export const messagingSchema: SchemaBundle = {
  name: 'messaging',
  entities: [],
  migrations: [MessagingInit1767000000000, MessagingLeaseHolders1767951200000],
};

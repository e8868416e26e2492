import type { SchemaBundle } from '@gaia/shared/database';
import { BillingInit1767600000000 } from './migrations/1767600000000-billing-init';
import { BillingPlanHistory1795490000000 } from './migrations/1795490000000-billing-plan-history';
import { BillingAnonymousUsage1795490000200 } from './migrations/1795490000200-billing-anonymous-usage';
import { BillingPublicIpPurgeIndexes1795800000007 } from './migrations/1795800000007-billing-public-ip-purge-indexes';

export const billingSchema: SchemaBundle = {
  name: 'billing',
  entities: [],
  migrations: [BillingInit1767600000000, BillingPlanHistory1795490000000, BillingAnonymousUsage1795490000200, BillingPublicIpPurgeIndexes1795800000007],
};

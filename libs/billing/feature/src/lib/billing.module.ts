import { Module, type DynamicModule } from '@nestjs/common';
import {
  BillingErasureRepository,
  COUNTER_PURGE_REPOSITORY,
  PLAN_HISTORY_REPOSITORY,
  PostgresCounterPurgeRepository,
  PostgresPlanHistoryRepository,
  PostgresQuotaRepository,
  PostgresUsageRepository,
  QUOTA_REPOSITORY,
  USAGE_REPOSITORY,
} from '@gaia/billing/data-access';
import { APP_CONFIG, type AppConfig } from '@gaia/shared/config';
import { CLOCK, type Clock } from '@gaia/shared/kernel';
import { BillingAccountEventsListener } from './erase-account/account-events.listener';
import { AuthorizeUseCase } from './authorize/authorize.use-case';
import { BillingRpcHandlers } from './billing.rpc';
import { BILLING_CLOCK, PUBLIC_TRANSLATOR_LIMITS } from './billing.tokens';
import { EraseAccountBillingUseCase } from './erase-account/erase-account.use-case';
import { DEFAULT_PUBLIC_TRANSLATOR_LIMITS, type PublicTranslatorLimits } from './metering.rules';
import { PlansUseCase } from './plans/plans.use-case';
import { PurgeCountersJob } from './purge-counters/purge-counters.job';
import { PurgeCountersUseCase } from './purge-counters/purge-counters.use-case';
import { DEFAULT_QUOTA_LEASE_OPTIONS, QUOTA_LEASE_OPTIONS, QuotaLeases, type QuotaLeaseOptions } from './quota-leases';
import { RecordUsageUseCase } from './record-usage/record-usage.use-case';
import { RecordUsageRpc } from './record-usage/record-usage.rpc';
import { UsageBatchListener } from './record-usage/usage-batch.listener';
import { UsageListener } from './record-usage/usage.listener';
import { UsageQueriesUseCase } from './usage-queries/usage-queries.use-case';

export interface BillingModuleOptions {
  /** Clock of the daily/monthly windows; default the app's CLOCK. */
  clock?: Clock;
  /** Per-IP limits of the public translator; default APP_CONFIG PUBLIC_TRANSLATE_PER_IP_PER_MINUTE / _PER_DAY. */
  publicTranslator?: PublicTranslatorLimits;
  /** Pace of the quota leases' writes and idle give-back (default: every 1 s / after 1 s idle). */
  quotaLeases?: Partial<QuotaLeaseOptions>;
}

const limitsFromConfig = (c: AppConfig): PublicTranslatorLimits => ({
  perIpPerMinute: c.PUBLIC_TRANSLATE_PER_IP_PER_MINUTE ?? DEFAULT_PUBLIC_TRANSLATOR_LIMITS.perIpPerMinute,
  perIpPerDay: c.PUBLIC_TRANSLATE_PER_IP_PER_DAY ?? DEFAULT_PUBLIC_TRANSLATOR_LIMITS.perIpPerDay,
});

/**
 * The billing service: usage metering (consumer `billing` of usage.recorded.v1), plans, the atomic
 * quota check `billing.authorize.v1`, usage pages. Needs CoreModule with `billingSchema`.
 */
@Module({})
export class BillingModule {
  static forRoot(options: BillingModuleOptions = {}): DynamicModule {
    return {
      module: BillingModule,
      providers: [
        options.clock ? { provide: BILLING_CLOCK, useValue: options.clock } : { provide: BILLING_CLOCK, useExisting: CLOCK },
        options.publicTranslator
          ? { provide: PUBLIC_TRANSLATOR_LIMITS, useValue: options.publicTranslator }
          : { provide: PUBLIC_TRANSLATOR_LIMITS, useFactory: limitsFromConfig, inject: [APP_CONFIG] },
        { provide: QUOTA_REPOSITORY, useClass: PostgresQuotaRepository },
        { provide: USAGE_REPOSITORY, useClass: PostgresUsageRepository },
        { provide: PLAN_HISTORY_REPOSITORY, useClass: PostgresPlanHistoryRepository },
        { provide: COUNTER_PURGE_REPOSITORY, useClass: PostgresCounterPurgeRepository },
        { provide: QUOTA_LEASE_OPTIONS, useValue: { ...DEFAULT_QUOTA_LEASE_OPTIONS, ...options.quotaLeases } },
        QuotaLeases,
        AuthorizeUseCase,
        RecordUsageUseCase,
        UsageQueriesUseCase,
        PlansUseCase,
        BillingRpcHandlers,
        UsageListener,
        UsageBatchListener,
        RecordUsageRpc,
        BillingErasureRepository,
        EraseAccountBillingUseCase,
        BillingAccountEventsListener,
        PurgeCountersUseCase,
        PurgeCountersJob,
      ],
      exports: [AuthorizeUseCase, UsageQueriesUseCase, PlansUseCase, QuotaLeases],
    };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { UsageRecordedV1 } from '@gaia/contracts';
import { QUOTA_REPOSITORY, USAGE_REPOSITORY, type QuotaRepositoryPort, type UsageEntity, type UsageRepositoryPort } from '@gaia/billing/data-access';

/**
 * Stores one usage record per translate request (exactly once: the inbox dedupes the event, the
 * request-id key dedupes a re-emitted one, alone or in a batch). The user is the event's, else the one the request was
 * authorized for, else the key's owner.
 */
@Injectable()
export class RecordUsageUseCase {
  constructor(
    @Inject(USAGE_REPOSITORY) private readonly usage: UsageRepositoryPort,
    @Inject(QUOTA_REPOSITORY) private readonly quota: QuotaRepositoryPort,
  ) {}

  async record(em: EntityManager, u: UsageRecordedV1): Promise<boolean> {
    return this.usage.insert(em, await this.entity(em, u));
  }

  /** A batch of records (usage.recorded-batch.v1) in one statement; answers how many were new. */
  async recordMany(em: EntityManager, records: UsageRecordedV1[]): Promise<number> {
    const rows = [];
    for (const u of records) rows.push(await this.entity(em, u));
    return this.usage.insertMany(em, rows);
  }

  private async entity(em: EntityManager, u: UsageRecordedV1): Promise<UsageEntity> {
    let userId = u.userId;
    if (!userId) userId = (await this.quota.findAuthorization(em, u.requestId))?.userId ?? null;
    if (!userId && u.keyId) userId = (await this.quota.findKey(em, u.keyId))?.userId ?? null;
    return {
      requestId: u.requestId,
      keyId: u.keyId,
      userId,
      agentId: u.agentId,
      words: u.sourceWords,
      inputTokens: u.inputTokens,
      outputTokens: u.outputTokens,
      engine: u.engine,
      fallbackReason: u.fallbackReason,
      latencyMs: u.latencyMs,
      occurredAt: new Date(u.occurredAt),
    };
  }
}

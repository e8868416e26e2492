import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventMap } from '@gaia/contracts';
import { OnEvent } from '@gaia/shared/messaging';
import { RecordUsageUseCase } from './record-usage.use-case';

/** The billing consumer of batched usage (one transaction with the inbox row; each record once per request id). */
@Injectable()
export class UsageBatchListener {
  constructor(private readonly recorder: RecordUsageUseCase) {}

  @OnEvent('billing', 'usage.recorded-batch.v1')
  async onUsageBatch(p: EventMap['usage.recorded-batch.v1'], em: EntityManager): Promise<void> {
    await this.recorder.recordMany(em, p.records);
  }
}

import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventMap } from '@gaia/contracts';
import { OnEvent } from '@gaia/shared/messaging';
import { RecordUsageUseCase } from './record-usage.use-case';

/** The billing consumer of usage events (one transaction with the inbox row: exactly once). */
@Injectable()
export class UsageListener {
  constructor(private readonly recorder: RecordUsageUseCase) {}

  @OnEvent('billing', 'usage.recorded.v1')
  async onUsage(p: EventMap['usage.recorded.v1'], em: EntityManager): Promise<void> {
    await this.recorder.record(em, p);
  }
}

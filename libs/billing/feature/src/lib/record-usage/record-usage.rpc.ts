import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { RpcRequest, RpcResponse } from '@gaia/contracts';
import { DATA_SOURCE } from '@gaia/shared/database';
import { OnRpc } from '@gaia/shared/messaging';
import { RecordUsageUseCase } from './record-usage.use-case';

/** `billing.record-usage.v1`: a batch of usage records written in one statement (no transaction, no inbox: deduped by request id). */
@Injectable()
export class RecordUsageRpc {
  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly recorder: RecordUsageUseCase,
  ) {}

  @OnRpc('billing.record-usage.v1')
  async record(r: RpcRequest<'billing.record-usage.v1'>): Promise<RpcResponse<'billing.record-usage.v1'>> {
    return { recorded: await this.recorder.recordMany(this.ds.manager, r.records) };
  }
}

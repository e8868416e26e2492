import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventEnvelope, EventMap } from '@gaia/contracts';
import { OnEvent } from '../decorators';
import { ProbeRepository } from './probe.repository';

/** The `probe` consumer: records every probe event it applies (with the process that applied it). */
@Injectable()
export class ProbeListener {
  constructor(private readonly records: ProbeRepository) {}

  @OnEvent('probe', 'diagnostics.probe.v1')
  onProbe(p: EventMap['diagnostics.probe.v1'], em: EntityManager, env: EventEnvelope): Promise<void> {
    return this.records.applied(em, p, env.id);
  }
}

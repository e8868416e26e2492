import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventMap } from '@gaia/contracts';

/** The process that applies a probe (several processes of one test share a database). */
export const PROBE_PROCESS = `${process.pid}`;

/** Rows of `diagnostics_probe_applied`: which process applied which probe event (on the delivery's transaction). */
@Injectable()
export class ProbeRepository {
  async applied(em: EntityManager, p: EventMap['diagnostics.probe.v1'], eventId: string): Promise<void> {
    await em.query(`INSERT INTO diagnostics_probe_applied (run_id, seq, event_id, applied_by) VALUES ($1, $2, $3, $4)`, [
      p.runId,
      p.seq,
      eventId,
      PROBE_PROCESS,
    ]);
  }
}

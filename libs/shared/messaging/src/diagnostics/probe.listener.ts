import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventEnvelope, EventMap, RpcRequest, RpcResponse } from '@gaia/contracts';
import { OnEvent, OnRpc } from '../decorators';

/** The `probe` consumer: records every probe event it applies (with the process that applied it). */
@Injectable()
export class ProbeListener {
  private readonly me = `${process.pid}`;

  @OnEvent('probe', 'diagnostics.probe.v1')
  async onProbe(p: EventMap['diagnostics.probe.v1'], em: EntityManager, env: EventEnvelope): Promise<void> {
    await em.query(`INSERT INTO diagnostics_probe_applied (run_id, seq, event_id, applied_by) VALUES ($1, $2, $3, $4)`, [p.runId, p.seq, env.id, this.me]);
  }

  @OnRpc('diagnostics.echo.v1')
  echo(req: RpcRequest<'diagnostics.echo.v1'>): RpcResponse<'diagnostics.echo.v1'> {
    return { message: req.message, servedBy: this.me };
  }

  @OnRpc('diagnostics.count.v1')
  async *count(req: RpcRequest<'diagnostics.count.v1'>): AsyncIterable<RpcResponse<'diagnostics.count.v1'>> {
    for (let i = 1; i <= req.n; i++) yield { i };
  }
}

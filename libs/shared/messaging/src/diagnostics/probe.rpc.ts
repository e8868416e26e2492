import { Injectable } from '@nestjs/common';
import type { RpcRequest, RpcResponse } from '@gaia/contracts';
import { OnRpc } from '../decorators';
import { PROBE_PROCESS } from './probe.repository';

/** The `probe` RPCs of the messaging self-test: a unary echo and a counting stream, both naming the serving process. */
@Injectable()
export class ProbeRpcHandlers {
  @OnRpc('diagnostics.echo.v1')
  echo(req: RpcRequest<'diagnostics.echo.v1'>): RpcResponse<'diagnostics.echo.v1'> {
    return { message: req.message, servedBy: PROBE_PROCESS };
  }

  @OnRpc('diagnostics.count.v1')
  async *count(req: RpcRequest<'diagnostics.count.v1'>): AsyncIterable<RpcResponse<'diagnostics.count.v1'>> {
    for (let i = 1; i <= req.n; i++) yield { i };
  }
}

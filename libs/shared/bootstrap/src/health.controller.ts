import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@gaia/shared/database';
import { MESSAGING_OPTIONS, TRANSPORTS, type MessagingOptions, type Transports } from '@gaia/shared/messaging';

interface Check {
  name: string;
  ok: boolean;
  ms: number;
  error?: string;
}

async function timed(name: string, fn: () => Promise<unknown>, timeoutMs = 2000): Promise<Check> {
  const t = Date.now();
  try {
    await Promise.race([fn(), new Promise((_, rej) => setTimeout(() => rej(new Error('timeout')), timeoutMs).unref())]);
    return { name, ok: true, ms: Date.now() - t };
  } catch (e) {
    return { name, ok: false, ms: Date.now() - t, error: (e as Error).message };
  }
}

/** Liveness (the process answers) and readiness (database and broker reachable). */
@Controller()
export class HealthController {
  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(TRANSPORTS) private readonly transports: Transports,
    @Inject(MESSAGING_OPTIONS) private readonly messaging: MessagingOptions,
  ) {}

  @Get('healthz')
  @HttpCode(200)
  @ApiOperation({ summary: 'Liveness: the process answers' })
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  @ApiOperation({ summary: 'Readiness: database and broker reachable (503 otherwise)' })
  @ApiResponse({ status: 200, description: '{ status: "ok", transport, checks }' })
  @ApiResponse({ status: 503, description: '{ status: "unavailable", transport, checks }' })
  async readyz(@Res() res: Response): Promise<void> {
    const checks = await Promise.all([timed('database', () => this.ds.query('SELECT 1')), timed('broker', () => this.brokerCheck())]);
    const ok = checks.every((c) => c.ok);
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'unavailable', transport: this.messaging.transport, checks });
  }

  private async brokerCheck(): Promise<void> {
    if (this.messaging.transport === 'inprocess') return;
    const client = this.transports.rpcClient as unknown as { unwrap<T>(): T };
    const nc = client.unwrap<{ isClosed(): boolean; flush(): Promise<void> }>();
    if (nc.isClosed()) throw new Error('NATS connection closed');
    await nc.flush();
  }
}

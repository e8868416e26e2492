import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { TranslateBatchEvent } from '@gaia/contracts';
import { Auth } from '../auth/auth.guard';
import { clientIp, principalOf, type GatewayRequest } from '../auth/principal';
import { errorResponse } from '../http/domain-error.filter';
import { requestFingerprint } from '../http/idempotency.interceptor';
import { S } from '../openapi/schemas';
import { SB } from '../openapi/translate-batch-file.schemas';
import { TranslateBatchUseCase } from './translate-batch.use-case';
import { openSse, sseFrame } from '../http/sse';

const sse = (e: TranslateBatchEvent | { type: 'error'; message: string }): string => sseFrame(e);

@ApiTags('translate')
@Controller('api')
export class TranslateBatchController {
  constructor(private readonly batches: TranslateBatchUseCase) {}

  @Post('translate/batch')
  @Auth('key')
  @HttpCode(200)
  @ApiHeader({ name: 'X-API-Key', required: false, description: 'API key (or the public translator key); the session cookie works too' })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'For stream=false: a repeat replays the answer (each text billed once)' })
  @ApiOperation({
    summary: 'Translate up to 100 texts with one agent: one result per text in order, failures per text, metered per text',
    description:
      'Each text is one translation (50 words / 2,000 characters, counted and billed like POST /api/translate). With stream true (default) the answer is SSE: ' +
      'every event of text i as `data: {"index": i, "type": …}`, then `{"type":"batch_complete"}`; else JSON. A refusal of the caller or the agent (401/403/404) refuses the batch. ' +
      'The JSON body may reach 1.2 MB (100 texts of 2,000 characters); other JSON bodies stay at 100 KB.',
  })
  @ApiBody({ schema: SB.translateBatchBody })
  @ApiProduces('text/event-stream', 'application/json')
  @ApiResponse({
    status: 200,
    description: 'text/event-stream of batch events, or the JSON answer',
    content: { 'text/event-stream': { schema: SB.translateBatchEvent }, 'application/json': { schema: SB.translateBatchJson } },
  })
  @ApiResponse({ status: 400, schema: S.error, description: 'No texts, more than 100, missing fields' })
  @ApiResponse({ status: 401, schema: S.error, description: 'Missing, invalid or revoked key' })
  @ApiResponse({ status: 404, schema: S.error, description: "'Model not found.'" })
  async translateBatch(@Body() body: unknown, @Req() req: GatewayRequest, @Res() res: Response): Promise<void> {
    const principal = principalOf(req);
    const ip = clientIp(req);
    const parsed = this.batches.parse(body);
    if (!parsed.stream) {
      const key = req.headers['idempotency-key'];
      const scope =
        principal.kind === 'session'
          ? `user:${principal.user.id}`
          : principal.kind === 'key'
            ? principal.key.kind === 'public'
              ? `public:${ip}`
              : `key:${principal.key.keyId}`
            : `ip:${ip}`;
      let gone = false;
      res.on('close', () => (gone = !res.writableFinished));
      const { answer, replayed } = await this.batches.json(
        { principal, ip, body, idempotencyKey: typeof key === 'string' && key ? key : undefined, cancelled: () => gone },
        scope,
        requestFingerprint(req),
      );
      if (replayed) res.setHeader('Idempotent-Replayed', 'true');
      res.status(200).json(answer);
      return;
    }
    await this.stream(principal, ip, body, res);
  }

  /**
   * SSE from the first event (the use case holds the first text's events until it is known not to refuse
   * the whole batch, which is then a JSON error with its status). A client disconnect cancels the running
   * translations.
   */
  private async stream(principal: ReturnType<typeof principalOf>, ip: string, body: unknown, res: Response): Promise<void> {
    let started = false;
    let gone = false;
    const running = new Set<() => void>();
    const start = () => {
      if (started) return;
      started = true;
      openSse(res);
    };
    res.on('close', () => {
      if (res.writableFinished) return;
      gone = true;
      for (const cancel of running) cancel();
    });
    const emit = (e: TranslateBatchEvent) => {
      if (gone) return;
      start();
      res.write(sse(e));
    };
    try {
      await this.batches.run({ principal, ip, body, emit, cancelled: () => gone, onRunning: (c) => running.add(c) });
    } catch (e) {
      if (!started) throw e;
      res.write(sse({ type: 'error', message: errorResponse(e).body.error }));
    }
    if (!gone) {
      start();
      res.end();
    }
  }
}

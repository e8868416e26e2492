import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiCookieAuth, ApiHeader, ApiOperation, ApiProduces, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { TranslateJsonResponse, TranslationEventDto } from '@gaia/contracts';
import { DomainError } from '@gaia/shared/kernel';
import { Auth } from '../auth/auth.guard';
import { clientIp, principalOf, type GatewayRequest } from '../auth/principal';
import { errorResponse } from '../http/domain-error.filter';
import { IdempotentRequests } from '../http/idempotency.interceptor';
import { S } from '../openapi/schemas';
import { TranslateService, type PreparedTranslation } from './translate.service';
import { openSse, sseFrame } from '../http/sse';

const sse = (e: TranslationEventDto | { type: 'error'; message: string }): string => sseFrame(e);

/** Runs the stream to its end (non-streamed answer). */
function collect(t: PreparedTranslation, signal: { closed: boolean; cancel?: () => void }): Promise<TranslateJsonResponse> {
  return new Promise((resolve, reject) => {
    let raw = '';
    let done: TranslateJsonResponse | null = null;
    const sub = t.events.subscribe({
      next: (e) => {
        if (e.type === 'translation_chunk') raw += e.content;
        if (e.type === 'error') reject(new DomainError('translation_failed', e.message || 'Translation failed', 502));
        if (e.type === 'translation_complete') {
          done = {
            success: true,
            data: { translation: e.final_translation, raw_translation: raw || e.final_translation },
            confidence: e.confidence,
            untranslated: e.untranslated,
            applied_terms: e.applied_terms ?? [],
            source_text: e.source_text,
            response_time: e.response_time,
            source_language: e.source_language,
            target_language: e.target_language,
            ...(e.explanation ? { explanation: e.explanation } : {}),
          };
        }
      },
      error: reject,
      complete: () => (done ? resolve(done) : reject(new DomainError('translation_failed', 'Translation failed', 502))),
    });
    signal.cancel = () => sub.unsubscribe();
  });
}

@ApiTags('translate')
@Controller('api')
export class TranslateController {
  constructor(
    private readonly translations: TranslateService,
    private readonly idempotent: IdempotentRequests,
  ) {}

  @Post('translate')
  @Auth('key')
  @HttpCode(200)
  @ApiSecurity('apiKey')
  @ApiCookieAuth('session')
  @ApiHeader({ name: 'X-API-Key', required: false, description: 'API key (or the public translator key); the session cookie works too' })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'For stream=false: a repeat replays the answer' })
  @ApiOperation({
    summary:
      'Translate with an agent: SSE `data: {json}` lines (status, translation_chunk, translation_complete, error) when stream is true (default), else JSON',
  })
  @ApiBody({ schema: S.translateBody })
  @ApiProduces('text/event-stream', 'application/json')
  @ApiResponse({
    status: 200,
    description: 'text/event-stream of TranslationEvent, or the JSON answer',
    content: { 'text/event-stream': { schema: S.translationEvent }, 'application/json': { schema: S.translateJson } },
  })
  @ApiResponse({ status: 400, schema: S.error, description: 'Validation (50 words / 2,000 characters, languages)' })
  @ApiResponse({ status: 401, schema: S.error, description: 'Missing, invalid or revoked key' })
  @ApiResponse({ status: 403, schema: S.error })
  @ApiResponse({ status: 404, schema: S.error, description: "'Model not found.'" })
  @ApiResponse({ status: 429, schema: S.error, description: 'Plan or rate limit reached (Retry-After)' })
  async translate(@Body() body: unknown, @Req() req: GatewayRequest, @Res() res: Response): Promise<void> {
    const p = principalOf(req);
    const ip = clientIp(req);
    const wantsStream = !(body && typeof body === 'object' && (body as { stream?: unknown }).stream === false);
    if (!wantsStream) {
      // The JSON answer is idempotent on Idempotency-Key (stored and replayed like every write route).
      const answer = await this.idempotent.run(req, res, 200, (requestId) => this.runJson(p, ip, body, res, requestId));
      // Written as is: Express' res.json would also hash the body for an ETag, which no client of a POST answer uses.
      const json = JSON.stringify(answer.body);
      res.statusCode = answer.status;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Length', Buffer.byteLength(json));
      res.end(json);
      return;
    }
    await this.streamSse(await this.translations.prepare(p, ip, body), req, res);
  }

  private async runJson(
    p: ReturnType<typeof principalOf>,
    ip: string,
    body: unknown,
    res: Response,
    requestId: string | undefined,
  ): Promise<TranslateJsonResponse> {
    const t = await this.translations.prepare(p, ip, body, requestId, { finalOnly: true });
    const signal: { closed: boolean; cancel?: () => void } = { closed: false };
    // The client went away before the answer: stop the translation.
    res.on('close', () => {
      if (!res.writableFinished) signal.cancel?.();
    });
    return collect(t, signal);
  }

  /**
   * Waits for the first event before committing to `text/event-stream`, so a refusal (unknown agent,
   * limits) is still a JSON error with its status. A client disconnect unsubscribes, which cancels the RPC.
   */
  private streamSse(t: PreparedTranslation, req: GatewayRequest, res: Response): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let started = false;
      let finished = false;
      const start = () => {
        if (started) return;
        started = true;
        openSse(res);
      };
      const sub = t.events.subscribe({
        next: (e) => {
          start();
          res.write(sse(e));
        },
        error: (e) => {
          finished = true;
          if (!started) return reject(e);
          res.write(sse({ type: 'error', message: errorResponse(e).body.error }));
          res.end();
          resolve();
        },
        complete: () => {
          finished = true;
          start();
          res.end();
          resolve();
        },
      });
      res.on('close', () => {
        if (!finished) {
          sub.unsubscribe();
          resolve();
        }
      });
    });
  }
}

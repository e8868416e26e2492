import { Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import {
  TRANSLATE_BATCH_MAX_TEXTS,
  translateBatchBodySchema,
  type TranslateBatchEvent,
  type TranslateBatchItemResult,
  type TranslateBatchJsonResponse,
} from '@gaia/contracts';
import { IdempotencyService } from '@gaia/identity/feature';
import { DomainError } from '@gaia/shared/kernel';
import type { Principal } from '../auth/principal';
import { errorResponse } from '../http/domain-error.filter';
import { TranslateService, type PreparedTranslation } from '../translate/translate.service';

/** Texts of one batch translated at the same time. */
export const BATCH_CONCURRENCY = 4;
/** Statuses that refuse the whole batch when its first text meets them (the caller or the agent, not the text). */
const REQUEST_LEVEL_STATUSES = new Set([401, 403, 404]);
const ROUTE = 'POST /api/translate/batch';

export interface BatchRun {
  principal: Principal;
  ip: string;
  body: unknown;
  /** Every translation event of text `index`, tagged with it (streamed batches). */
  emit?: (e: TranslateBatchEvent) => void;
  /** Set when the client went away: texts not started are not translated. */
  cancelled?: () => boolean;
  /** Called with an unsubscribe function for each running translation, so a disconnect cancels them. */
  onRunning?: (cancel: () => void) => void;
  idempotencyKey?: string;
}

/**
 * POST /api/translate/batch: up to 100 texts for one agent, one result per text in order. Each text is one
 * translation through TranslateService.prepare (its own validation, access check and metering: billed per
 * text), so one failing text (too long, quota, engine error) fails only its own result. A refusal of the
 * first text for the caller or the agent (401/403/404) refuses the whole batch. With an Idempotency-Key a
 * JSON batch is replayed, and each text's billing request id follows the key (never billed twice).
 */
@Injectable()
export class TranslateBatchUseCase {
  constructor(
    private readonly translations: TranslateService,
    private readonly idem: IdempotencyService,
  ) {}

  parse(body: unknown) {
    const parsed = translateBatchBodySchema.safeParse(body ?? {});
    if (parsed.success) return parsed.data;
    const b = (body ?? {}) as Record<string, unknown>;
    if (!Array.isArray(b['texts']) || b['texts'].length === 0)
      throw DomainError.invalid('Missing required fields: texts (an array of 1 to 100 texts).', 'invalid_request');
    if (b['texts'].length > TRANSLATE_BATCH_MAX_TEXTS)
      throw DomainError.invalid(`Too many texts: ${b['texts'].length} (maximum ${TRANSLATE_BATCH_MAX_TEXTS}).`, 'too_many_texts');
    const missing = ['model_id', 'src_lang', 'tgt_lang'].filter((k) => typeof b[k] !== 'string' || !(b[k] as string).trim());
    if (missing.length) throw DomainError.invalid(`Missing required fields: ${missing.join(', ')}.`, 'invalid_request');
    throw DomainError.invalid('Invalid request: texts must be strings and stream a boolean.', 'invalid_request');
  }

  /** The JSON answer, replayed for a repeated Idempotency-Key. */
  async json(run: BatchRun, scope: string, fingerprint: string): Promise<{ answer: TranslateBatchJsonResponse; replayed: boolean }> {
    const key = run.idempotencyKey;
    if (!key) return { answer: await this.run(run), replayed: false };
    const start = await this.idem.begin(scope, ROUTE, key, fingerprint);
    if (start.kind === 'replay') {
      if (start.status >= 400) throw new DomainError('idempotent_replay', (start.body as { error?: string } | null)?.error ?? 'Request failed', start.status);
      return { answer: start.body as TranslateBatchJsonResponse, replayed: true };
    }
    try {
      const answer = await this.run(run, `idem-${createHash('sha256').update(`${scope}|${key}`).digest('hex').slice(0, 40)}`);
      await this.idem.complete(scope, ROUTE, key, 200, answer);
      return { answer, replayed: false };
    } catch (e) {
      await this.idem.release(scope, ROUTE, key).catch(() => undefined);
      throw e;
    }
  }

  /** Translates every text; resolves with the results in order (also emitted as events when `emit` is given). */
  async run(run: BatchRun, requestIdBase: string = randomUUID()): Promise<TranslateBatchJsonResponse> {
    const started = Date.now();
    const b = this.parse(run.body);
    if (run.principal.kind === 'anonymous') throw DomainError.unauthorized('Missing API key. Send it in the X-API-Key header.', 'api_key_required');
    const results: TranslateBatchItemResult[] = new Array(b.texts.length);
    const item = (index: number) => ({ text: b.texts[index], model_id: b.model_id, src_lang: b.src_lang, tgt_lang: b.tgt_lang });
    // A JSON batch (no `emit`) keeps only each text's answer: its translations carry no per-word events.
    const finalOnly = !run.emit;
    const one = (index: number) => this.translateOne(run, index, item(index), `${requestIdBase}-${index}`, finalOnly);
    // The first text runs alone, its events held back: if it is refused for the caller or the agent, so is the batch.
    const held: TranslateBatchEvent[] = [];
    results[0] = await this.translateOne({ ...run, emit: (e) => held.push(e) }, 0, item(0), `${requestIdBase}-0`, finalOnly);
    if (!results[0].ok && REQUEST_LEVEL_STATUSES.has(results[0].status)) throw new DomainError('batch_refused', results[0].error, results[0].status);
    for (const e of held) run.emit?.(e);
    let next = 1;
    const worker = async () => {
      while (next < b.texts.length) {
        const i = next++;
        results[i] = run.cancelled?.() ? { index: i, ok: false, status: 499, error: 'Cancelled.' } : await one(i);
      }
    };
    await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, b.texts.length - 1) }, worker));
    const succeeded = results.filter((r) => r.ok).length;
    const answer: TranslateBatchJsonResponse = {
      success: true,
      results,
      succeeded,
      failed: results.length - succeeded,
      source_language: b.src_lang.trim(),
      target_language: b.tgt_lang.trim(),
      response_time: (Date.now() - started) / 1000,
    };
    run.emit?.({ type: 'batch_complete', succeeded, failed: answer.failed, response_time: answer.response_time });
    return answer;
  }

  private async translateOne(
    run: BatchRun,
    index: number,
    body: { text: string; model_id: string; src_lang: string; tgt_lang: string },
    requestId: string,
    finalOnly: boolean,
  ): Promise<TranslateBatchItemResult> {
    const fail = (e: unknown): TranslateBatchItemResult => {
      const r = errorResponse(e);
      run.emit?.({ index, type: 'error', message: r.body.error });
      return { index, ok: false, status: r.status, error: r.body.error };
    };
    let prepared: PreparedTranslation;
    try {
      prepared = await this.translations.prepare(run.principal, run.ip, { ...body, stream: true }, requestId, { finalOnly });
    } catch (e) {
      return fail(e);
    }
    const events = prepared.events;
    return new Promise<TranslateBatchItemResult>((resolve) => {
      let raw = '';
      let result: TranslateBatchItemResult | null = null;
      const sub = events.subscribe({
        next: (e) => {
          if (e.type === 'error') {
            result = { index, ok: false, status: 502, error: e.message || 'Translation failed' };
          } else {
            if (e.type === 'translation_chunk') raw += e.content;
            if (e.type === 'translation_complete')
              result = { index, ok: true, translation: e.final_translation, raw_translation: raw || e.final_translation, response_time: e.response_time };
          }
          run.emit?.({ ...e, index });
        },
        error: (e: unknown) => resolve(fail(e)),
        complete: () => resolve(result ?? { index, ok: false, status: 502, error: 'Translation failed' }),
      });
      run.onRunning?.(() => {
        sub.unsubscribe();
        resolve({ index, ok: false, status: 499, error: 'Cancelled.' });
      });
    });
  }
}

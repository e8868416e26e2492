import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Observable } from 'rxjs';
import { TRANSLATION_MAX_CHARS, TRANSLATION_MAX_WORDS, translateBodySchema, type TranslationEventDto } from '@gaia/contracts';
import { RATE_LIMITER, type RateLimiter } from '@gaia/identity/feature';
import { DomainError, countWords } from '@gaia/shared/kernel';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { viewerOf, type Principal } from '../auth/principal';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../gateway.options';
import { enforceRateRules } from '../http/rate-limit';

export const MODEL_NOT_FOUND = 'Model not found.';
export const PUBLIC_KEY_LIMIT = 'Too many requests from your network with the public key. Please try again later, or create your own API key.';

export interface PreparedTranslation {
  requestId: string;
  text: string;
  srcLang: string;
  tgtLang: string;
  stream: boolean;
  /** Cold: subscribing starts the translation; unsubscribing cancels it. */
  events: Observable<TranslationEventDto>;
}

/** Same limits and texts as the translation service, checked before any quota is consumed. */
export function checkText(raw: string): string {
  const text = raw.trim();
  if (!text) throw DomainError.invalid('Please enter text to translate.', 'text_required');
  if (text.length > TRANSLATION_MAX_CHARS) {
    throw DomainError.invalid(`Text is too long: ${text.length.toLocaleString('en-US')} characters (maximum ${TRANSLATION_MAX_CHARS.toLocaleString('en-US')}).`, 'text_too_long');
  }
  const words = countWords(text);
  if (words > TRANSLATION_MAX_WORDS) throw DomainError.invalid(`Text is too long: ${words} words (maximum ${TRANSLATION_MAX_WORDS}).`, 'text_too_long');
  return text;
}

/**
 * One translation for a caller (API key, public key or session): validates, applies per-IP limits to the
 * public key, checks the agent is visible to the caller (public key: public agents only), consumes quota
 * (billing.authorize.v1; given back when the translation is refused before running) and opens the stream.
 */
@Injectable()
export class TranslateService {
  private readonly logger = new Logger('Translate');

  constructor(
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
  ) {}

  async prepare(p: Principal, ip: string, body: unknown, requestId: string = randomUUID()): Promise<PreparedTranslation> {
    const parsed = translateBodySchema.safeParse(body ?? {});
    if (!parsed.success) {
      const b = (body ?? {}) as Record<string, unknown>;
      const missing = ['text', 'model_id', 'src_lang', 'tgt_lang'].filter((k) => typeof b[k] !== 'string' || !(b[k] as string).trim());
      throw DomainError.invalid(missing.length ? `Missing required fields: ${missing.join(', ')}.` : 'Invalid request: stream must be a boolean.', 'invalid_request');
    }
    const b = parsed.data;
    for (const k of ['model_id', 'src_lang', 'tgt_lang'] as const) if (!b[k].trim()) throw DomainError.invalid(`Missing required fields: ${k}.`, 'invalid_request');
    const text = checkText(b.text);
    if (p.kind === 'anonymous') throw DomainError.unauthorized('Missing API key. Send it in the X-API-Key header.', 'api_key_required');
    const isPublicKey = p.kind === 'key' && p.key.kind === 'public';
    if (isPublicKey) await enforceRateRules(this.limiter, `public-key:ip:${ip}`, this.options.publicKeyPerIp, PUBLIC_KEY_LIMIT);
    // Public key: anonymous viewer, so only public agents are found; others: public or owner/editor.
    await this.rpc.call('agents.access.v1', { agentId: b.model_id.trim(), viewer: isPublicKey ? null : viewerOf(p), need: 'read' });
    const keyId = p.kind === 'key' ? p.key.keyId : null;
    const userId = p.kind === 'session' ? p.user.id : p.kind === 'key' ? p.key.userId : null;
    await this.rpc.call('billing.authorize.v1', {
      requestId,
      keyId,
      userId,
      channel: p.kind === 'key' ? 'api' : 'web',
      keyRateLimit: p.kind === 'key' ? (isPublicKey ? null : p.key.rateLimit) : undefined,
      words: countWords(text),
    });
    const source = this.rpc.stream('translation.translate.v1', {
      requestId,
      text,
      model_id: b.model_id.trim(),
      src_lang: b.src_lang.trim(),
      tgt_lang: b.tgt_lang.trim(),
      caller: { keyId, userId },
    });
    const events = new Observable<TranslationEventDto>((sub) => {
      let seen = false;
      const inner = source.subscribe({
        next: (e) => {
          seen = true;
          sub.next(e);
        },
        error: (e) => {
          // Refused before running: give the quota back before the caller hears about it.
          if (!seen) void this.release(requestId).finally(() => sub.error(e));
          else sub.error(e);
        },
        complete: () => sub.complete(),
      });
      return () => inner.unsubscribe();
    });
    return { requestId, text, srcLang: b.src_lang.trim(), tgtLang: b.tgt_lang.trim(), stream: b.stream, events };
  }

  private async release(requestId: string): Promise<void> {
    try {
      await this.rpc.call('billing.release.v1', { requestId });
    } catch (e) {
      this.logger.warn(`could not release quota of ${requestId}: ${(e as Error).message}`);
    }
  }
}

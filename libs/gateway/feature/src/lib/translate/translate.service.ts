import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Observable } from 'rxjs';
import { translateBodySchema, type TranslationEventDto } from '@gaia/contracts';
import { DomainError, checkTranslationInput } from '@gaia/shared/kernel';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { viewerOf, type Principal } from '../auth/principal';
import { assertFieldLimits } from '../http/field-limits.pipe';
import { TranslationMeter } from './translation-meter';

export const MODEL_NOT_FOUND = 'Model not found.';

export interface PreparedTranslation {
  requestId: string;
  text: string;
  srcLang: string;
  tgtLang: string;
  stream: boolean;
  /** Cold: subscribing starts the translation; unsubscribing cancels it. */
  events: Observable<TranslationEventDto>;
}

/**
 * One translation for a caller (API key, public key or session — HTTP and Socket.IO; a batch calls it once
 * per text): validates, checks the agent is visible to the caller (public key: public agents only), meters
 * it (`TranslationMeter`: every path counts; units given back when it fails) and opens the stream.
 */
@Injectable()
export class TranslateService {
  constructor(
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    private readonly meter: TranslationMeter,
  ) {}

  /** `finalOnly`: the caller keeps only the answer (JSON), so the stream carries no status events and one joined chunk. */
  async prepare(p: Principal, ip: string, body: unknown, requestId: string = randomUUID(), opts: { finalOnly?: boolean } = {}): Promise<PreparedTranslation> {
    assertFieldLimits(body); // HTTP bodies passed the pipe already; Socket.IO messages are checked here
    const parsed = translateBodySchema.safeParse(body ?? {});
    if (!parsed.success) {
      const b = (body ?? {}) as Record<string, unknown>;
      const missing = ['text', 'model_id', 'src_lang', 'tgt_lang'].filter((k) => typeof b[k] !== 'string' || !(b[k] as string).trim());
      throw DomainError.invalid(
        missing.length ? `Missing required fields: ${missing.join(', ')}.` : 'Invalid request: stream must be a boolean.',
        'invalid_request',
      );
    }
    const b = parsed.data;
    for (const k of ['model_id', 'src_lang', 'tgt_lang'] as const)
      if (!b[k].trim()) throw DomainError.invalid(`Missing required fields: ${k}.`, 'invalid_request');
    // The translation input rule (defined once, in the kernel), before any quota is used.
    const { text, words } = checkTranslationInput(b.text);
    if (p.kind === 'anonymous') throw DomainError.unauthorized('Missing API key. Send it in the X-API-Key header.', 'api_key_required');
    const isPublicKey = p.kind === 'key' && p.key.kind === 'public';
    // Public key: anonymous viewer, so only public agents are found; others: public or owner/editor.
    // One agents call: the access check also answers the record the translation service needs (no resolve there).
    const { record } = await this.rpc.call('agents.access.v1', {
      agentId: b.model_id.trim(),
      viewer: isPublicKey ? null : viewerOf(p),
      need: 'read',
      record: true,
    });
    await this.meter.authorize(p, ip, requestId, words);
    const keyId = p.kind === 'key' ? p.key.keyId : null;
    const userId = p.kind === 'session' ? p.user.id : p.kind === 'key' ? p.key.userId : null;
    const source = this.rpc.stream('translation.translate.v1', {
      requestId,
      text,
      model_id: b.model_id.trim(),
      src_lang: b.src_lang.trim(),
      tgt_lang: b.tgt_lang.trim(),
      caller: { keyId, userId },
      agent: record,
      explain: b.explain,
      ...(opts.finalOnly ? { final_only: true } : {}),
    });
    return { requestId, text, srcLang: b.src_lang.trim(), tgtLang: b.tgt_lang.trim(), stream: b.stream, events: this.meter.meter(requestId, source) };
  }
}

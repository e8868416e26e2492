import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants.js';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { from, lastValueFrom, map, type Observable } from 'rxjs';
import { IdempotencyService, sha256 } from '@gaia/identity/feature';
import { DomainError } from '@gaia/shared/kernel';
import { clientIp, principalOf } from '../auth/principal';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

const REPLAY_ANSWER = 'gaia:idempotency-replay-answer';
/** What is stored (and replayed) instead of an answer: a route whose answer holds a secret stores a redacted copy. */
export type ReplayAnswer = (answer: unknown) => unknown;
/** Declares the replayable form of a route's answer (default: the answer itself). It must not hold a secret. */
export const IdempotentReplayAs = (fn: ReplayAnswer) => SetMetadata(REPLAY_ANSWER, fn);

function stable(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stable);
  if (v && typeof v === 'object' && !(v instanceof Buffer)) {
    return Object.fromEntries(
      Object.keys(v as object)
        .sort()
        .map((k) => [k, stable((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

/** Fingerprint of a request: JSON/form fields plus every uploaded file's name, field and SHA-256. */
export function requestFingerprint(req: Request): string {
  const raw = (req as Request & { files?: unknown }).files;
  const files = (Array.isArray(raw) ? raw : []) as { fieldname: string; originalname: string; size: number; buffer: Buffer }[];
  return sha256(
    JSON.stringify(
      stable({
        body: req.body ?? null,
        query: req.query ?? null,
        files: files.map((f) => ({ field: f.fieldname, name: f.originalname, size: f.size, sha: sha256(f.buffer.toString('base64')) })),
      }),
    ),
  );
}

/** The caller an Idempotency-Key belongs to: the session user, the API key, or the IP (public translator key, anonymous). */
export function idempotencyScope(req: Request): string {
  const p = principalOf(req);
  if (p.kind === 'session') return `user:${p.user.id}`;
  if (p.kind === 'key') return p.key.kind === 'public' ? `public:${clientIp(req)}` : `key:${p.key.keyId}`;
  return `ip:${clientIp(req)}`;
}

/** Length of the hex digest in an idempotent request id (`idem-<digest>`). */
const REQUEST_ID_DIGEST_LENGTH = 40;

/** What `IdempotentRequests.run` answers: the stored answer of a repeat or the fresh one, with its status. */
export interface IdempotentOutcome {
  status: number;
  body: unknown;
}

/**
 * `Idempotency-Key` on writes: the first request runs and its answer is stored per (caller, route, key);
 * the same key with the same request replays the answer (header `Idempotent-Replayed: true`) without a
 * second effect; with a different request it is 422. A failed request releases the key (it had no effect).
 * A route whose answer carries a secret declares a redacted replay with `@IdempotentReplayAs` (never stored).
 * `work` receives the request id that follows the key (`idem-…`, e.g. the billing id of a translation, so even a
 * lost answer is never billed twice), or undefined without a key. Used by `IdempotencyInterceptor` and by routes
 * that write their own response (the JSON answer of POST /api/translate).
 */
@Injectable()
export class IdempotentRequests {
  constructor(private readonly idem: IdempotencyService) {}

  async run(
    req: Request,
    res: Response,
    status: number,
    work: (requestId: string | undefined) => Promise<unknown>,
    replayable: ReplayAnswer = (a) => a,
  ): Promise<IdempotentOutcome> {
    const key = req.headers[IDEMPOTENCY_HEADER];
    if (typeof key !== 'string' || !key) return { status, body: await work(undefined) };
    const scope = idempotencyScope(req);
    const route = `${req.method} ${(req.route as { path?: string } | undefined)?.path ?? req.path}`;
    const start = await this.idem.begin(scope, route, key, requestFingerprint(req));
    if (start.kind === 'replay') {
      res.setHeader('Idempotent-Replayed', 'true');
      if (start.status >= 400) {
        const body = start.body as { error?: string } | null;
        throw new DomainError('idempotent_replay', body?.error ?? 'Request failed', start.status);
      }
      return { status: start.status, body: start.body };
    }
    try {
      const body = await work(`idem-${createHash('sha256').update(`${scope}|${key}`).digest('hex').slice(0, REQUEST_ID_DIGEST_LENGTH)}`);
      await this.idem.complete(scope, route, key, status, replayable(body ?? null));
      return { status, body };
    } catch (e) {
      await this.idem.release(scope, route, key).catch(() => undefined);
      throw e;
    }
  }
}

/** `IdempotentRequests` around a route's handler. Apply after any upload interceptor so the files are part of the fingerprint. */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly requests: IdempotentRequests,
    private readonly reflector: Reflector,
  ) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = ctx.switchToHttp().getRequest<Request>();
    const res = ctx.switchToHttp().getResponse<Response>();
    const status = this.reflector.get<number | undefined>(HTTP_CODE_METADATA, ctx.getHandler()) ?? (req.method === 'POST' ? 201 : 200);
    const replayable = this.reflector.get<ReplayAnswer | undefined>(REPLAY_ANSWER, ctx.getHandler());
    return from(this.requests.run(req, res, status, () => lastValueFrom(next.handle(), { defaultValue: undefined }), replayable)).pipe(
      map((outcome) => outcome.body),
    );
  }
}

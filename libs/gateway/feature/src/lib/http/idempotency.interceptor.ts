import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants.js';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, mergeMap, Observable, of, catchError, throwError } from 'rxjs';
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
    return Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, stable((v as Record<string, unknown>)[k])]));
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

/**
 * `Idempotency-Key` on writes: the first request runs and its answer is stored per (caller, route, key);
 * the same key with the same request replays the answer (header `Idempotent-Replayed: true`) without a
 * second effect; with a different request it is 422. A failed request releases the key (it had no effect).
 * A route whose answer carries a secret declares a redacted replay with `@IdempotentReplayAs` (never stored).
 * Apply after any upload interceptor so the files are part of the fingerprint.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly idem: IdempotencyService, private readonly reflector: Reflector) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = ctx.switchToHttp().getRequest<Request>();
    const res = ctx.switchToHttp().getResponse<Response>();
    const key = req.headers[IDEMPOTENCY_HEADER];
    if (typeof key !== 'string' || !key) return next.handle();
    const p = principalOf(req);
    const scope = p.kind === 'session' ? `user:${p.user.id}` : p.kind === 'key' ? (p.key.kind === 'public' ? `public:${clientIp(req)}` : `key:${p.key.keyId}`) : `ip:${clientIp(req)}`;
    const routePath = (req.route as { path?: string } | undefined)?.path ?? req.path;
    const route = `${req.method} ${routePath}`;
    const status = this.reflector.get<number | undefined>(HTTP_CODE_METADATA, ctx.getHandler()) ?? (req.method === 'POST' ? 201 : 200);
    const replayable = this.reflector.get<ReplayAnswer | undefined>(REPLAY_ANSWER, ctx.getHandler()) ?? ((a: unknown) => a);
    return from(this.idem.begin(scope, route, key, requestFingerprint(req))).pipe(
      mergeMap((start) => {
        if (start.kind === 'replay') {
          res.setHeader('Idempotent-Replayed', 'true');
          if (start.status >= 400) {
            const body = start.body as { error?: string } | null;
            return throwError(() => new DomainError('idempotent_replay', body?.error ?? 'Request failed', start.status));
          }
          return of(start.body);
        }
        return next.handle().pipe(
          mergeMap(async (body) => {
            await this.idem.complete(scope, route, key, status, replayable(body ?? null));
            return body;
          }),
          catchError((e) => from(this.idem.release(scope, route, key).catch(() => undefined)).pipe(mergeMap(() => throwError(() => e)))),
        );
      }),
    );
  }
}

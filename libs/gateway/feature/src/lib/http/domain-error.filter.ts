import { ArgumentsHost, Catch, HttpException, Logger, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isDomainError, type DomainError } from '@gaia/shared/kernel';
import { requestContext } from '@gaia/shared/observability';

/** Sends `{ error }` with the right status: DomainError → its status; HttpException → its status; anything else → 500. */
export function errorResponse(e: unknown): { status: number; body: { error: string }; retryAfter?: number } {
  if (isDomainError(e)) {
    const d = e as DomainError;
    const details = d.details as { retryAfterSeconds?: unknown } | undefined;
    const retryAfter = typeof details?.retryAfterSeconds === 'number' ? Math.max(1, Math.ceil(details.retryAfterSeconds)) : undefined;
    return {
      status: d.status >= 400 && d.status < 600 ? d.status : 500,
      body: { error: d.status >= 500 && d.code === 'internal' ? 'Internal server error' : d.message },
      retryAfter,
    };
  }
  if (e instanceof HttpException) {
    const status = e.getStatus();
    const r = e.getResponse();
    let message = e.message;
    if (typeof r === 'object' && r && 'message' in r) {
      const m = (r as { message: unknown }).message;
      message = Array.isArray(m) ? m.join('; ') : String(m);
    }
    // Upload limits: the multipart parser (multer, GatewayModule) is the one check of file count and size, both 413.
    if (status === 413 || /^too many files$/i.test(message)) {
      return {
        status: 413,
        body: { error: /file too large/i.test(message) ? 'File too large.' : /too many files/i.test(message) ? 'Too many files.' : 'The upload is too large.' },
      };
    }
    if (status === 400 && /^too many (parts|fields)$/i.test(message)) message = `${message}.`;
    if (status === 404 && /^Cannot (GET|POST|PUT|PATCH|DELETE)/.test(message)) message = 'Not found.';
    return { status, body: { error: status >= 500 ? 'Internal server error' : message } };
  }
  return { status: 500, body: { error: 'Internal server error' } };
}

/** Header naming a refusal with its DomainError code (e.g. `invalid_credentials`): clients translate by code, not by message. */
export const ERROR_CODE_HEADER = 'X-Error-Code';

/** The stable code of a refusal, or null (internal errors and framework exceptions carry none). */
export function errorCode(e: unknown): string | null {
  if (!isDomainError(e)) return null;
  const d = e as DomainError;
  return d.code === 'internal' ? null : d.code;
}

@Catch()
export class DomainErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Gateway');

  catch(e: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw e;
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request & { id?: string }>();
    const { status, body, retryAfter } = errorResponse(e);
    // A refusal with Retry-After (e.g. uploads_busy) is load shedding, not a failure: not logged as an error.
    if (status >= 500 && retryAfter === undefined) {
      const requestId = req.id ?? requestContext.requestId() ?? res.getHeader('X-Request-Id');
      this.logger.error(`${req.method} ${req.originalUrl} failed (request ${requestId ?? '-'}): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
    const code = errorCode(e);
    if (code) res.setHeader(ERROR_CODE_HEADER, code);
    res.status(status).json(body);
  }
}

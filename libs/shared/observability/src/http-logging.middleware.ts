import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { requestContext } from './request-context';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Express middleware: takes `X-Request-Id` (or makes one), echoes it, runs the request inside a context
 * so every log line of it carries the id, and writes one access log line when the response finishes.
 */
export function httpLogging(logger: Logger) {
  return (req: IncomingMessage & { id?: string }, res: ServerResponse, next: () => void): void => {
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.id = requestId;
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const url = req.url ?? '';
      if (url === '/healthz' || url === '/readyz') return;
      logger.info({ requestId, method: req.method, url: url.split('?')[0], status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    requestContext.run({ requestId }, next);
  };
}

import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import { requestContext } from './request-context';

const STDOUT_FD = 1;

/**
 * Structured JSON logs; `destination` defaults to stdout (a command line sends them to stderr, fd 2), written
 * synchronously like Node's own stdout on Linux: a line costs one write(2) on the event loop (~7 µs here) instead
 * of a thread-pool round trip per line (~16 µs on the loop, ~36 µs of CPU in all, measured on this 2-core box), and
 * nothing logged before a crash is left in a buffer (issue #13).
 */
export function createRootLogger(opts: { level: string; service: string; destination?: pino.DestinationStream }): Logger {
  const options: pino.LoggerOptions = {
    level: opts.level,
    base: { service: opts.service, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const id = requestContext.requestId();
      return id ? { requestId: id } : {};
    },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]', 'password', '*.password', 'api_key'],
      censor: '[redacted]',
    },
  };
  return pino(options, opts.destination ?? pino.destination({ dest: STDOUT_FD, sync: true }));
}

/** Nest's logger interface on top of pino: every framework and app log line is structured JSON. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace', message: unknown, params: unknown[]): void {
    const context = typeof params[params.length - 1] === 'string' ? (params[params.length - 1] as string) : undefined;
    const extra = level === 'error' && typeof params[0] === 'string' && params.length > 1 ? { stack: params[0] } : {};
    if (message instanceof Error) this.logger[level]({ context, err: message }, message.message);
    else if (typeof message === 'object' && message !== null) this.logger[level]({ context, ...extra, ...(message as object) });
    else this.logger[level]({ context, ...extra }, String(message));
  }
  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
}

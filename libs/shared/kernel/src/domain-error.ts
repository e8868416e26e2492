/**
 * A rule was broken or something is missing. `message` is what the user reads (the spec's exact text
 * where it gives one); `status` is the HTTP status the gateway answers with; `code` is stable for clients.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number = 400,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  static notFound(message: string, code = 'not_found'): DomainError {
    return new DomainError(code, message, 404);
  }
  static forbidden(message = 'You do not have access to this resource.', code = 'forbidden'): DomainError {
    return new DomainError(code, message, 403);
  }
  static unauthorized(message = 'Authentication required.', code = 'unauthorized'): DomainError {
    return new DomainError(code, message, 401);
  }
  static invalid(message: string, code = 'invalid_request', details?: unknown): DomainError {
    return new DomainError(code, message, 400, details);
  }
  static conflict(message: string, code = 'conflict'): DomainError {
    return new DomainError(code, message, 409);
  }
  static tooMany(message: string, retryAfterSeconds?: number, code = 'rate_limited'): DomainError {
    return new DomainError(code, message, 429, retryAfterSeconds === undefined ? undefined : { retryAfterSeconds });
  }

  toJSON(): { code: string; message: string; status: number; details?: unknown } {
    return { code: this.code, message: this.message, status: this.status, details: this.details };
  }
}

export function isDomainError(e: unknown): e is DomainError {
  return e instanceof DomainError || (typeof e === 'object' && e !== null && (e as { name?: string }).name === 'DomainError');
}

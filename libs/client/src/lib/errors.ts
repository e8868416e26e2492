/** An error answer of the Gaia API: the server's `{ error }` message and the HTTP status. */
export class GaiaApiError extends Error {
  override readonly name: string = 'GaiaApiError';
  constructor(
    message: string,
    readonly status: number,
    /** The parsed error body (`{ error }`), when there was one. */
    readonly body?: unknown,
  ) {
    super(message);
  }
}
/** 400: the request was refused as invalid (e.g. more than 50 words). */
export class GaiaValidationError extends GaiaApiError {
  override readonly name = 'GaiaValidationError';
}
/** 401: missing, invalid or revoked key, or not signed in. */
export class GaiaAuthenticationError extends GaiaApiError {
  override readonly name = 'GaiaAuthenticationError';
}
/** 403: signed in or keyed, but not allowed (or a missing CSRF token). */
export class GaiaPermissionError extends GaiaApiError {
  override readonly name = 'GaiaPermissionError';
}
/** 404: e.g. 'Model not found.' */
export class GaiaNotFoundError extends GaiaApiError {
  override readonly name = 'GaiaNotFoundError';
}
/** 409 / 422: conflicts, e.g. an Idempotency-Key reused with another request. */
export class GaiaConflictError extends GaiaApiError {
  override readonly name = 'GaiaConflictError';
}
/** 413: the upload is too large. */
export class GaiaPayloadTooLargeError extends GaiaApiError {
  override readonly name = 'GaiaPayloadTooLargeError';
}
/** 429: plan, key or per-IP limit reached; `retryAfterSeconds` from the Retry-After header. */
export class GaiaRateLimitError extends GaiaApiError {
  override readonly name = 'GaiaRateLimitError';
  constructor(
    message: string,
    status: number,
    body: unknown,
    readonly retryAfterSeconds: number | null,
  ) {
    super(message, status, body);
  }
}
/** 5xx, or an `error` event that ended a translation stream (status 502). */
export class GaiaServerError extends GaiaApiError {
  override readonly name = 'GaiaServerError';
}
/** The server could not be reached (the request may or may not have arrived). */
export class GaiaNetworkError extends Error {
  override readonly name = 'GaiaNetworkError';
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** Seconds to wait from a Retry-After header (delta-seconds or an HTTP date); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The typed error of a status and its server message. */
export function errorFor(status: number, message: string, body: unknown, retryAfter: string | null): GaiaApiError {
  if (status === 400) return new GaiaValidationError(message, status, body);
  if (status === 401) return new GaiaAuthenticationError(message, status, body);
  if (status === 403) return new GaiaPermissionError(message, status, body);
  if (status === 404) return new GaiaNotFoundError(message, status, body);
  if (status === 409 || status === 422) return new GaiaConflictError(message, status, body);
  if (status === 413) return new GaiaPayloadTooLargeError(message, status, body);
  if (status === 429) return new GaiaRateLimitError(message, status, body, parseRetryAfter(retryAfter));
  if (status >= 500) return new GaiaServerError(message, status, body);
  return new GaiaApiError(message, status, body);
}

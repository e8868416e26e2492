/** Small fetch wrapper: same-origin cookies, CSRF echo on unsafe methods, `{ error }` bodies as ApiError. */

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The server's stable code of the refusal (X-Error-Code, e.g. 'invalid_credentials'); null when none. */
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Header in which the gateway names a refusal's stable code (the UI words it by code, in its own language). */
export const ERROR_CODE_HEADER = 'X-Error-Code';

export const CSRF_COOKIE = 'gaia_csrf';
export const CSRF_HEADER = 'X-CSRF-Token';

export function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const [k, ...rest] = part.trim().split('=');
    if (k === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface RequestOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  idempotencyKey?: string;
}

export function buildHeaders(method: string, opts: RequestOptions, isJson: boolean): Headers {
  const headers = new Headers(opts.headers);
  if (isJson && !headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  if (UNSAFE.has(method)) {
    const csrf = readCookie(CSRF_COOKIE);
    if (csrf) headers.set(CSRF_HEADER, csrf);
  }
  if (opts.idempotencyKey) headers.set('Idempotency-Key', opts.idempotencyKey);
  return headers;
}

export async function errorFrom(res: Response, fallback: string): Promise<ApiError> {
  let message = fallback;
  try {
    const body = (await res.json()) as { error?: unknown };
    if (body && typeof body.error === 'string' && body.error) message = body.error;
  } catch {
    /* body was not JSON: keep the fallback */
  }
  return new ApiError(message, res.status, res.headers.get(ERROR_CODE_HEADER));
}

/** Raw request: returns the Response when ok, throws ApiError otherwise. */
export async function apiFetch(path: string, opts: RequestOptions = {}, fallbackError = 'Request failed'): Promise<Response> {
  const method = (opts.method ?? 'GET').toUpperCase();
  const isForm = typeof FormData !== 'undefined' && opts.body instanceof FormData;
  const hasBody = opts.body !== undefined;
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: buildHeaders(method, opts, hasBody && !isForm),
    body: !hasBody ? undefined : isForm ? (opts.body as FormData) : JSON.stringify(opts.body),
    signal: opts.signal,
  });
  if (!res.ok) throw await errorFrom(res, fallbackError);
  return res;
}

export async function apiJson<T>(path: string, opts: RequestOptions = {}, fallbackError?: string): Promise<T> {
  const res = await apiFetch(path, opts, fallbackError);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

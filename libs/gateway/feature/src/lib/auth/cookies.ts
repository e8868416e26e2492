import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'gaia_session';
export const CSRF_COOKIE = 'gaia_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** Parses the Cookie header (no dependency on a cookie middleware being installed). */
export function readCookies(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  const header = req.headers.cookie;
  if (!header) return out;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const k = part.slice(0, i).trim();
    let v = part.slice(i + 1).trim();
    if (v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
    try {
      if (!(k in out)) out[k] = decodeURIComponent(v);
    } catch {
      /* malformed value: ignore */
    }
  }
  return out;
}

export function isSecureRequest(req: Request, publicBaseUrl?: string): boolean {
  return publicBaseUrl ? publicBaseUrl.startsWith('https:') : req.secure;
}

export function setSessionCookies(res: Response, token: string, csrfToken: string, expiresAt: Date, secure: boolean): void {
  res.cookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure, path: '/', expires: expiresAt });
  res.cookie(CSRF_COOKIE, csrfToken, { httpOnly: false, sameSite: 'lax', secure, path: '/', expires: expiresAt });
}

export function clearSessionCookies(res: Response, secure: boolean): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
  res.clearCookie(CSRF_COOKIE, { httpOnly: false, sameSite: 'lax', secure, path: '/' });
}

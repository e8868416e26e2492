import type { Express, NextFunction, Request, Response } from 'express';
import helmet from 'helmet';

const INSTALLED = 'gaia security headers';

/** HSTS max-age: one year (sent only on https). */
export const HSTS_MAX_AGE_SECONDS = 31_536_000;

/**
 * Content-Security-Policy of every answer. The web app is a Vite build (module scripts and stylesheets
 * from /assets, no inline script); React sets style attributes through the CSSOM, but libraries and the
 * Swagger UI inject <style> elements, hence 'unsafe-inline' for styles only. Socket.IO and the API are
 * same-origin ('self' covers ws:/wss: to the same host). The OIDC callback page sets its own stricter policy.
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
};

type HeaderStep = { set: string; value: string } | { remove: string };

/**
 * What a helmet middleware does to a response, recorded once: with these options its headers depend on
 * nothing in the request, so every answer replays the same steps instead of running its eleven middlewares.
 */
function recordHeaderSteps(middleware: (req: Request, res: Response, next: (err?: unknown) => void) => void): HeaderStep[] {
  const steps: HeaderStep[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => steps.push({ set: name, value: String(value) }),
    removeHeader: (name: string) => steps.push({ remove: name }),
  };
  let failure: unknown;
  middleware({} as Request, recorder as unknown as Response, (err?: unknown) => (failure = err));
  if (failure) throw failure;
  return steps;
}

function replay(res: Response, steps: readonly HeaderStep[]): void {
  for (const step of steps) {
    if ('set' in step) res.setHeader(step.set, step.value);
    else res.removeHeader(step.remove);
  }
}

/**
 * Browser security headers (helmet): CSP, X-Frame-Options DENY, nosniff, Referrer-Policy, no X-Powered-By;
 * HSTS only on a request that came over https (`req.secure`, which honours X-Forwarded-Proto when
 * TRUST_PROXY is set). No Cross-Origin-Opener-Policy: the OIDC sign-in popup needs `window.opener`.
 */
export function installSecurityHeaders(app: Express): void {
  if (app.get(INSTALLED)) return;
  app.set(INSTALLED, true);
  app.disable('x-powered-by');
  const headers = recordHeaderSteps(
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
      crossOriginOpenerPolicy: false,
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      strictTransportSecurity: false,
    }),
  );
  const hsts = recordHeaderSteps(helmet.strictTransportSecurity({ maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true }));
  app.use((req: Request, res: Response, next: NextFunction) => {
    replay(res, headers);
    if (req.secure) replay(res, hsts);
    next();
  });
}

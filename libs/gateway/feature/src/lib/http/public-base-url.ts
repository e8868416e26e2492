import type { Request } from 'express';
import type { AppConfig } from '@gaia/shared/config';

/** Origin for links in mail: PUBLIC_BASE_URL when configured, else the origin the request came to. */
export function publicBaseUrl(req: Request, config: Pick<AppConfig, 'PUBLIC_BASE_URL'>): string {
  return (config.PUBLIC_BASE_URL ?? `${req.protocol}://${req.get('host')}`).replace(/\/+$/u, '');
}

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import express from 'express';

/** Serves the built web app at `/` with a single-page-app fallback (API, sockets and health excluded). */
export function serveWebApp(app: INestApplication, dir: string): boolean {
  const root = resolve(dir);
  const index = join(root, 'index.html');
  if (!existsSync(index)) return false;
  const http = app.getHttpAdapter().getInstance() as express.Express;
  http.use(
    express.static(root, {
      index: false,
      maxAge: '1h',
      setHeaders: (res, path) => {
        if (path.endsWith('.html')) res.setHeader('Cache-Control', 'no-cache');
        if (/\/assets\/.+-[A-Za-z0-9_-]{6,}\.(js|css|png|svg|woff2?|jpg|webp)$/.test(path))
          res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      },
    }),
  );
  http.get(/^(?!\/(api|socket\.io|healthz|readyz|metrics)(\/|$)).*/, (req, res, next) => {
    if (req.method !== 'GET' || !req.accepts('html')) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  return true;
}

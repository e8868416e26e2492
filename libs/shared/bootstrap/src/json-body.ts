import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import { TRANSLATE_BATCH_MAX_BODY_BYTES, TRANSLATE_BATCH_PATH } from '@gaia/contracts';

/** Every JSON body but the batch's: Nest's own default (100 KB); no single field of a request is larger. */
export const JSON_BODY_LIMIT_BYTES = 100 * 1024;

/**
 * JSON parsers of every Gaia HTTP app, installed before Nest would add its default one (it then skips it): a
 * translation batch may carry 100 full texts, every other route keeps the default limit. Over its limit: 413.
 */
export function installJsonBodyParsers(app: INestApplication): void {
  const http = (app as NestExpressApplication).getHttpAdapter().getInstance() as express.Express;
  http.use(TRANSLATE_BATCH_PATH, express.json({ limit: TRANSLATE_BATCH_MAX_BODY_BYTES }));
  http.use(express.json({ limit: JSON_BODY_LIMIT_BYTES }));
}

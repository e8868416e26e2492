import { INGESTION_MAX_FILES_PER_UPLOAD, INGESTION_MAX_FILE_BYTES } from '@gaia/contracts';

/** Limits of the HTTP edge (per-IP windows are shared by every replica through Postgres counters). */
export interface RateRule {
  limit: number;
  windowSeconds: number;
}

export interface GatewayOptions {
  /** Sign-in / sign-up attempts per client IP. */
  authPerIp: RateRule[];
  /** Failed sign-ins per account (any IP): past the limit the account refuses sign-in until the window ends. */
  failedSignInsPerAccount: RateRule[];
  /** Upload limits (files per request, bytes per file). */
  maxFileBytes: number;
  maxFiles: number;
  /** Swagger UI at /api/docs (the JSON is always at /api/docs-json). */
  swaggerUi: boolean;
}

export const GATEWAY_OPTIONS = Symbol('GATEWAY_OPTIONS');

export const DEFAULT_GATEWAY_OPTIONS: GatewayOptions = {
  authPerIp: [{ limit: 30, windowSeconds: 60 }],
  failedSignInsPerAccount: [{ limit: 10, windowSeconds: 900 }],
  maxFileBytes: INGESTION_MAX_FILE_BYTES,
  maxFiles: INGESTION_MAX_FILES_PER_UPLOAD,
  swaggerUi: true,
};

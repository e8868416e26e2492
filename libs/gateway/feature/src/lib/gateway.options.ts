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
  /** Dataset downloads (GET /api/models/download) per client IP, anonymous or a public key: anyone may download a public agent's dataset. */
  datasetDownloadsPerIp: RateRule[];
  /** Dataset downloads per signed-in account (session or the account's API key). */
  datasetDownloadsPerAccount: RateRule[];
  /** Upload limits (files per request, bytes per file). */
  maxFileBytes: number;
  maxFiles: number;
  /** Swagger UI at /api/docs (the JSON is always at /api/docs-json). */
  swaggerUi: boolean;
}

export const GATEWAY_OPTIONS = Symbol('GATEWAY_OPTIONS');

/** Dataset downloads a minute per anonymous client IP (each may rebuild a zip of every original when the dataset changed). */
export const DATASET_DOWNLOADS_PER_MINUTE_ANONYMOUS = 10;
/** Dataset downloads a minute per signed-in account. */
export const DATASET_DOWNLOADS_PER_MINUTE_SIGNED_IN = 30;

export const DEFAULT_GATEWAY_OPTIONS: GatewayOptions = {
  authPerIp: [{ limit: 30, windowSeconds: 60 }],
  failedSignInsPerAccount: [{ limit: 10, windowSeconds: 900 }],
  datasetDownloadsPerIp: [{ limit: DATASET_DOWNLOADS_PER_MINUTE_ANONYMOUS, windowSeconds: 60 }],
  datasetDownloadsPerAccount: [{ limit: DATASET_DOWNLOADS_PER_MINUTE_SIGNED_IN, windowSeconds: 60 }],
  maxFileBytes: INGESTION_MAX_FILE_BYTES,
  maxFiles: INGESTION_MAX_FILES_PER_UPLOAD,
  swaggerUi: true,
};

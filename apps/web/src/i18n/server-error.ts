import type { TFunction } from 'i18next';
import { ApiError } from '../api/http';

/** i18n namespace of the server's stable error codes (locales/{lang}/errors.json, key = code). */
export const ERRORS_NS = 'errors';
/** The server words its messages in this language: shown as they are when the UI is in it. */
const SERVER_LANGUAGE = 'en';

/**
 * What to show for a failed request, in the UI language: in English the server's own message (it may carry
 * details such as counts); in another language the wording of the server's stable code (X-Error-Code), else
 * `fallback` (never the server's English text).
 */
export function serverErrorText(err: unknown, t: TFunction, lang: string, fallback: string): string {
  return err instanceof ApiError ? wordedError(err, t, lang, fallback) : fallback;
}

/** serverErrorText for a failure kept as its message and code (e.g. in a component's state). */
export function wordedError(failure: { message: string; code: string | null }, t: TFunction, lang: string, fallback: string): string {
  if (lang.startsWith(SERVER_LANGUAGE)) return failure.message || fallback;
  const worded = failure.code ? t(failure.code, { ns: ERRORS_NS, defaultValue: '' }) : '';
  return worded || fallback;
}

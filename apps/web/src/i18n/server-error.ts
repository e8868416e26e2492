import type { TFunction } from 'i18next';
import { ApiError } from '../api/http';

/** i18n namespace of the server's stable error codes (locales/{lang}/errors.json, key = code). */
export const ERRORS_NS = 'errors';
/** Key (in ERRORS_NS) of the generic failure text, for an unknown code and no fallback of the caller. */
export const GENERIC_ERROR_KEY = 'generic';
/** The server words its messages in this language: shown as they are when the UI is in it. */
const SERVER_LANGUAGE = 'en';

export interface ServerFailure {
  message: string;
  /** Stable code of the refusal (X-Error-Code); null when the server sent none. */
  code: string | null;
}

/**
 * A server failure in the UI language, or null when it has no wording there: in English the server's own
 * message (it may carry details such as counts); in another language the wording of its stable code.
 */
export function wordedOrNull(failure: ServerFailure, t: TFunction, lang: string): string | null {
  if (lang.startsWith(SERVER_LANGUAGE)) return failure.message || null;
  return (failure.code ? t(failure.code, { ns: ERRORS_NS, defaultValue: '' }) : '') || null;
}

/** serverErrorText for a failure kept as its message and code (e.g. in a component's state). */
export function wordedError(failure: ServerFailure, t: TFunction, lang: string, fallback = ''): string {
  return wordedOrNull(failure, t, lang) ?? (fallback || t(GENERIC_ERROR_KEY, { ns: ERRORS_NS }));
}

/**
 * What to show for a failed request, in the UI language: the server's wording (see wordedOrNull), else
 * `fallback`, else the generic failure text; never the server's English text in another language.
 */
export function serverErrorText(err: unknown, t: TFunction, lang: string, fallback = ''): string {
  return wordedError(err instanceof ApiError ? err : { message: '', code: null }, t, lang, fallback);
}

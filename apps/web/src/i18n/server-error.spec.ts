// @vitest-environment node
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/http';
import { scanServerErrorCodes } from '../test/server-error-codes';
import { buildResources, initI18n } from './index';
import { ERRORS_NS, GENERIC_ERROR_KEY, serverErrorText, wordedError, wordedOrNull } from './server-error';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const resources = buildResources();
const texts = (lang: string) => resources[lang][ERRORS_NS] as Record<string, string>;
const i18n = initI18n('en');
const tEs = i18n.getFixedT('es');
const tEn = i18n.getFixedT('en');

describe('server error codes', () => {
  const scan = scanServerErrorCodes(REPO_ROOT);

  it('reads every code the services throw (each one a literal, a constant of its file or a typed parameter)', () => {
    expect(scan.unresolved).toEqual([]);
    expect(scan.codes).toEqual(
      expect.arrayContaining(['invalid_credentials', 'plan_limit_reached', 'account_locked', 'rate_limited', 'catalogue_unavailable', 'corpus_unavailable']),
    );
  });

  it.each(['en', 'es'])('every code has a text in %s', (lang) => {
    const missing = scan.codes.filter((code) => !texts(lang)[code]?.trim());
    expect(missing).toEqual([]);
  });

  it('words in Spanish every code, not with the English text', () => {
    const untranslated = Object.keys(texts('en')).filter((code) => texts('es')[code] === texts('en')[code]);
    expect(untranslated).toEqual([]);
  });
});

describe('serverErrorText', () => {
  const refusal = new ApiError('Your plan’s daily limit is reached (1,000 words).', 429, 'plan_limit_reached');

  it('shows the server’s own message in the English UI (with its details)', () => {
    expect(serverErrorText(refusal, tEn, 'en', 'fallback')).toBe('Your plan’s daily limit is reached (1,000 words).');
  });

  it('words a known code in the Spanish UI', () => {
    expect(serverErrorText(refusal, tEs, 'es', 'respaldo')).toBe('Se alcanzó el límite diario de tu plan. Se restablece a medianoche (UTC).');
    expect(serverErrorText(new ApiError('Model not found.', 404, 'agent_not_found'), tEs, 'es')).toBe('No se encontró el modelo.');
  });

  it('gives an unknown code the caller’s Spanish fallback, else the translated generic text, never the English message', () => {
    const unknown = new ApiError('Something odd happened.', 400, 'brand_new_code');
    expect(serverErrorText(unknown, tEs, 'es', 'No se pudo guardar.')).toBe('No se pudo guardar.');
    expect(serverErrorText(unknown, tEs, 'es')).toBe(texts('es')[GENERIC_ERROR_KEY]);
    expect(serverErrorText(new ApiError('No code here.', 500), tEs, 'es')).toBe('Algo salió mal. Inténtalo de nuevo.');
    expect(serverErrorText(new TypeError('fetch failed'), tEn, 'en')).toBe('Something went wrong. Please try again.');
  });

  it('tells when a failure has no wording in the UI language (the caller then says it its own way)', () => {
    expect(wordedOrNull({ message: 'Boom', code: 'brand_new_code' }, tEs, 'es')).toBeNull();
    expect(wordedOrNull({ message: 'Boom', code: null }, tEn, 'en')).toBe('Boom');
    expect(wordedError({ message: 'Invalid API key.', code: 'invalid_api_key' }, tEs, 'es', 'x')).toBe('Clave de API no válida.');
  });
});

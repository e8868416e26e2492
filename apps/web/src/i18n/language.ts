/** The language setting of spec §1/§9: gaia-en or gaia-es, stored under preferredLanguage. */
export const PREFERRED_LANGUAGE_KEY = 'preferredLanguage';
export type LanguageSetting = 'gaia-en' | 'gaia-es';
export type UiLanguage = 'en' | 'es';

/** Any value other than gaia-en shows Spanish. */
export function languageFromSetting(value: string | null | undefined): UiLanguage {
  return value === 'gaia-en' ? 'en' : 'es';
}

export function settingFromLanguage(lang: UiLanguage): LanguageSetting {
  return lang === 'en' ? 'gaia-en' : 'gaia-es';
}

export function readStoredSetting(): string | null {
  try {
    return window.localStorage.getItem(PREFERRED_LANGUAGE_KEY);
  } catch {
    return null;
  }
}

export function storeSetting(setting: LanguageSetting): void {
  try {
    window.localStorage.setItem(PREFERRED_LANGUAGE_KEY, setting);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}

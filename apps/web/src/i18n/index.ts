import i18n, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { languageFromSetting, readStoredSetting } from './language';

/**
 * Every `locales/{lang}/{namespace}.json` is loaded: an area adds its own namespace file
 * (e.g. `locales/en/dashboard.json`) without touching this one.
 */
const files = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json', { eager: true });

export function buildResources(): Resource {
  const resources: Resource = {};
  for (const [path, mod] of Object.entries(files)) {
    const match = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!match) continue;
    const [, lang, ns] = match;
    resources[lang] ??= {};
    resources[lang][ns] = mod.default;
  }
  return resources;
}

const resources = buildResources();
export const namespaces = Array.from(new Set(Object.values(resources).flatMap((r) => Object.keys(r))));

export function initI18n(lang = languageFromSetting(readStoredSetting())) {
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      resources,
      lng: lang,
      fallbackLng: 'en',
      ns: namespaces,
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
      initAsync: false,
    });
  } else if (i18n.language !== lang) {
    void i18n.changeLanguage(lang);
  }
  return i18n;
}

export { i18n };

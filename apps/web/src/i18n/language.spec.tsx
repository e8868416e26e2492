import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LanguageModal } from '../layout/language-modal';
import { i18n } from './index';
import { buildResources } from './index';
import { languageFromSetting, PREFERRED_LANGUAGE_KEY, settingFromLanguage } from './language';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('language setting', () => {
  it('shows English only for gaia-en; any other value shows Spanish', () => {
    expect(languageFromSetting('gaia-en')).toBe('en');
    expect(languageFromSetting('gaia-es')).toBe('es');
    expect(languageFromSetting('en')).toBe('es');
    expect(languageFromSetting('fr')).toBe('es');
    expect(languageFromSetting('')).toBe('es');
    expect(languageFromSetting(null)).toBe('es');
    expect(settingFromLanguage('en')).toBe('gaia-en');
    expect(settingFromLanguage('es')).toBe('gaia-es');
  });

  it('has the same keys in English and Spanish for every namespace', () => {
    const resources = buildResources();
    const keys = (obj: unknown, prefix = ''): string[] =>
      obj && typeof obj === 'object' && !Array.isArray(obj)
        ? Object.entries(obj).flatMap(([k, v]) => keys(v, `${prefix}${k}.`))
        : [prefix.replace(/_(one|other)\.$/, '.')];
    expect(Object.keys(resources.es).sort()).toEqual(Object.keys(resources.en).sort());
    for (const ns of Object.keys(resources.en)) {
      expect(keys(resources.es[ns]).sort(), ns).toEqual(keys(resources.en[ns]).sort());
    }
  });
});

/** Texts that are the same in both languages on purpose (names, numbers, loanwords). */
const SAME_IN_BOTH = new Set([
  'common:nav.datasets',
  'common:languageModal.english',
  'common:languageModal.spanish',
  'public:translator.error',
  'public:datasets.title',
  'public:pricing.plans.free.price',
  'public:pricing.plans.starter.name',
  'public:pricing.plans.starter.price',
  'public:pricing.plans.enterprise.name',
  'public:landing.stats.languages.value',
  'public:landing.stats.partners.value',
  'public:landing.metrics.bertscore.value',
  'public:landing.metrics.response.value',
  'public:docs.endpoints.title',
  'public:docs.parameters.no',
  'public:docs.responses.errorTitle',
  'public:docs.benchmarks.bertscore.value',
  'public:docs.benchmarks.responseTime.value',
  'dashboard:tabs.api',
  'dashboard:api.title',
  'dashboard:team.roleEditor',
  'dashboard:account.standard',
  'dashboard:account.plan',
  'dashboard:limits.title',
  'dashboard:limits.plans.Starter',
  'dashboard:limits.plans.Enterprise',
  'globe:languages.moore.region',
  'globe:languages.malagasy.region',
  'corpora:name',
  'public:docs.benchmarks.storage.value',
]);

/** A text made only of placeholders ('{{message}}') has nothing to translate. */
const ONLY_PLACEHOLDERS = /^(\s*\{\{[^}]+\}\}\s*)+$/;
/** A language's own name on the globe (Quechua, Guaraní, ...) is the same in both. */
const LANGUAGE_NAME = /^globe:languages\.[^.]+\.name$/;

describe('Spanish texts', () => {
  it('translate every English text of every namespace (the dashboard and the server error codes included)', () => {
    const resources = buildResources();
    const same: string[] = [];
    const walk = (en: unknown, es: unknown, key: string) => {
      if (typeof en === 'string') {
        if (en === es && !SAME_IN_BOTH.has(key) && !LANGUAGE_NAME.test(key) && !ONLY_PLACEHOLDERS.test(en)) same.push(key);
      } else if (en && typeof en === 'object') {
        for (const [k, v] of Object.entries(en)) walk(v, (es as Record<string, unknown>)?.[k], key.endsWith(':') ? `${key}${k}` : `${key}.${k}`);
      }
    };
    for (const ns of Object.keys(resources.en)) walk(resources.en[ns], resources.es[ns], `${ns}:`);
    expect(same).toEqual([]);
  });
});

describe('first-visit language modal', () => {
  it("asks 'Select Your Language' when nothing is stored, and saves Español as gaia-es", async () => {
    render(<LanguageModal />);
    expect(screen.getByRole('dialog', { name: 'Select Your Language' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Español' }));
    expect(window.localStorage.getItem(PREFERRED_LANGUAGE_KEY)).toBe('gaia-es');
    expect(i18n.language).toBe('es');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('saves English as gaia-en', () => {
    render(<LanguageModal />);
    fireEvent.click(screen.getByRole('button', { name: 'English' }));
    expect(window.localStorage.getItem(PREFERRED_LANGUAGE_KEY)).toBe('gaia-en');
    expect(i18n.language).toBe('en');
  });

  it('stays closed when a preference is stored, whatever its value', () => {
    window.localStorage.setItem(PREFERRED_LANGUAGE_KEY, 'something-else');
    render(<LanguageModal />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

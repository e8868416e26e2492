import type { TranslationExplanation } from '@gaia/contracts';
import { useTranslation } from 'react-i18next';

/**
 * "Why this translation?": the agent's own examples (and lexicon and glossary entries) that shaped the answer,
 * as the server explains it (`explain: true`). Collapsed by default.
 */
export function WhyPanel({ explanation }: { explanation: TranslationExplanation }) {
  const { t, i18n } = useTranslation('public');
  const score = (s: number) => new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 }).format(s);
  const { examples, lexicon, glossary } = explanation;
  return (
    <details className="why-panel" data-testid="why-panel">
      <summary>{t('translator.why')}</summary>
      {examples.length === 0 && lexicon.length === 0 && glossary.length === 0 && <p className="muted small">{t('translator.whyNothing')}</p>}
      {examples.length > 0 && (
        <>
          <h3 className="why-panel__heading">{t('translator.whyExamples')}</h3>
          <ul className="why-panel__list" data-testid="why-examples">
            {examples.map((e, i) => (
              <li key={i}>
                <span className="why-panel__source">{e.source}</span>
                <span aria-hidden="true"> → </span>
                <span className="visually-hidden">{t('translator.whyTranslatedAs')}</span>
                <span className="why-panel__target">{e.target}</span>
                <span className="muted small"> · {t('translator.whyScore', { value: score(e.score) })}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {glossary.length > 0 && (
        <>
          <h3 className="why-panel__heading">{t('translator.whyGlossary')}</h3>
          <ul className="why-panel__list" data-testid="why-glossary">
            {glossary.map((g, i) => (
              <li key={i}>
                {g.term} → {g.translation}
              </li>
            ))}
          </ul>
        </>
      )}
      {lexicon.length > 0 && (
        <>
          <h3 className="why-panel__heading">{t('translator.whyLexicon')}</h3>
          <ul className="why-panel__list why-panel__list--inline" data-testid="why-lexicon">
            {lexicon.map((l, i) => (
              <li key={i}>
                {l.source} → {l.target}
              </li>
            ))}
          </ul>
        </>
      )}
    </details>
  );
}

import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import i18n from 'i18next';
import { TranslationResult } from './translation-result';
import { IDLE, type TranslatorState } from './use-translator';

const explanation = {
  examples: [
    { source: "Mba'éichapa nde ka'aru", target: 'Buenas tardes', score: 0.82 },
    { source: 'Che róga', target: 'Mi casa', score: 0.4 },
  ],
  lexicon: [{ source: 'róga', target: 'casa', prob: 0.7 }],
  glossary: [{ term: 'tembiapo', translation: 'trabajo' }],
};
const done = (over: Partial<TranslatorState>): TranslatorState => ({
  ...IDLE,
  phase: 'complete',
  output: 'Buenas tardes',
  responseTime: 0.2,
  source: "Mba'éichapa",
  ...over,
});

describe('confidence badge and "Why this translation?"', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('shows the calibrated confidence as a percentage and lists the examples, glossary and lexicon entries', () => {
    render(<TranslationResult state={done({ confidence: 0.72, explanation })} />);
    expect(screen.getByTestId('confidence-badge')).toHaveTextContent('Confidence 72%');
    const panel = screen.getByTestId('why-panel');
    fireEvent.click(screen.getByText('Why this translation?'));
    expect(panel).toHaveAttribute('open');
    const items = screen.getByTestId('why-examples').querySelectorAll('li');
    expect([...items].map((li) => li.textContent)).toEqual([
      "Mba'éichapa nde ka'aru → translated asBuenas tardes · similarity 0.82",
      'Che róga → translated asMi casa · similarity 0.4',
    ]);
    expect(screen.getByTestId('why-glossary')).toHaveTextContent('tembiapo → trabajo');
    expect(screen.getByTestId('why-lexicon')).toHaveTextContent('róga → casa');
  });

  it('has no panel without an explanation and no badge without a confidence', () => {
    render(<TranslationResult state={done({ confidence: null, explanation: null })} />);
    expect(screen.queryByTestId('why-panel')).toBeNull();
    expect(screen.queryByTestId('confidence-badge')).toBeNull();
  });

  it('words both in Spanish', async () => {
    await i18n.changeLanguage('es');
    render(<TranslationResult state={done({ confidence: 0.5, explanation: { examples: [], lexicon: [], glossary: [] } })} />);
    expect(screen.getByTestId('confidence-badge').textContent).toMatch(/^Confianza 50\s?%$/);
    expect(screen.getByText('¿Por qué esta traducción?')).toBeInTheDocument();
    expect(screen.getByTestId('why-panel')).toHaveTextContent('Ningún ejemplo');
  });
});

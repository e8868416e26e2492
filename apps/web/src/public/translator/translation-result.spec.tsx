import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import i18n from 'i18next';
import { TranslationResult } from './translation-result';
import { IDLE, type TranslatorState } from './use-translator';

const done = (over: Partial<TranslatorState>): TranslatorState => ({ ...IDLE, phase: 'complete', output: 'Where the?', responseTime: 0.2, ...over });

describe('TranslationResult', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('shows a low-confidence badge and marks the untranslated spans of the source', () => {
    const source = 'Where is the library?';
    render(<TranslationResult state={done({ source, confidence: 0.14, untranslated: [{ start: 13, end: 20, text: 'library' }] })} />);
    expect(screen.getByTestId('low-confidence')).toHaveTextContent('Low confidence');
    const note = screen.getByTestId('untranslated');
    expect(note).toHaveTextContent('Not translated (marked): Where is the library?');
    const marks = note.querySelectorAll('mark');
    expect([...marks].map((m) => m.textContent)).toEqual(['library']);
  });

  it('shows neither when the translation is confident and complete', () => {
    render(<TranslationResult state={done({ source: 'Ana duerme.', confidence: 0.9, untranslated: [] })} />);
    expect(screen.queryByTestId('low-confidence')).toBeNull();
    expect(screen.queryByTestId('untranslated')).toBeNull();
  });

  it('words the badge and the note in Spanish', async () => {
    await i18n.changeLanguage('es');
    render(<TranslationResult state={done({ source: 'El gato duerme.', confidence: 0.3, untranslated: [{ start: 3, end: 7, text: 'gato' }] })} />);
    expect(screen.getByTestId('low-confidence')).toHaveTextContent('Confianza baja');
    expect(within(screen.getByTestId('untranslated')).getByText('gato').tagName).toBe('MARK');
    expect(screen.getByTestId('untranslated')).toHaveTextContent('Sin traducir (marcado):');
  });

  it('lists the glossary terms the answer applied, discreetly, in English and Spanish', async () => {
    const applied = [
      { term: 'library', translation: 'biblioteca' },
      { term: 'Ana', translation: 'Ana' },
    ];
    const { unmount } = render(<TranslationResult state={done({ source: 'Ana goes to the library.', confidence: 0.8, appliedTerms: applied })} />);
    const note = screen.getByTestId('applied-terms');
    expect(note).toHaveTextContent('Glossary applied: library → biblioteca, Ana → Ana');
    unmount();
    await i18n.changeLanguage('es');
    render(<TranslationResult state={done({ source: 'Ana goes to the library.', confidence: 0.8, appliedTerms: applied })} />);
    expect(screen.getByTestId('applied-terms')).toHaveTextContent('Glosario aplicado: library → biblioteca, Ana → Ana');
  });

  it('says nothing about the glossary when no term was applied', () => {
    render(<TranslationResult state={done({ source: 'Ana duerme.', confidence: 0.9, appliedTerms: [] })} />);
    expect(screen.queryByTestId('applied-terms')).toBeNull();
  });

  it("words the confidence badge's hint as the LLM's own agreement (not calibrated) when the LLM engine answered", async () => {
    const { unmount } = render(<TranslationResult state={done({ source: 'Ana duerme.', confidence: 0.75, engine: 'llm' })} />);
    expect(screen.getByTestId('confidence-badge')).toHaveAttribute('title', expect.stringContaining('not calibrated'));
    unmount();
    render(<TranslationResult state={done({ source: 'Ana duerme.', confidence: 0.75, engine: 'builtin' })} />);
    expect(screen.getByTestId('confidence-badge')).toHaveAttribute('title', expect.stringContaining('calibrated on sentences held out'));
  });
});

import type { AgentQuality } from '@gaia/contracts';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import i18n from 'i18next';
import { QualityCard } from './quality-card';

const entry = (version: string, chrf: number) => ({ version, chrf, bleu: chrf / 3, margin: chrf / 2, held_out: 100, pair_count: 2000, created_at: '2026-11-24T05:00:00.000Z' });
const quality: AgentQuality = {
  ...entry('v2', 0.41),
  measured: true,
  category: 'tiny',
  ab: null,
  history: [entry('v1', 0.35), entry('v2', 0.41)],
};

describe('QualityCard', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('shows the scores, the resource-size category and the history as an inline SVG chart', () => {
    render(<QualityCard quality={quality} />);
    expect(screen.getByTestId('quality-chrf')).toHaveTextContent('0.41');
    expect(screen.getByTestId('quality-held-out')).toHaveTextContent('100');
    expect(screen.getByTestId('quality-category')).toHaveTextContent('Tiny (under 10K pairs)');
    const chart = screen.getByTestId('quality-chart');
    expect(chart.querySelectorAll('circle')).toHaveLength(2);
    expect(chart).toHaveAttribute('aria-label', 'chrF of 2 versions');
  });

  it('says when the agent is too small to measure, and shows the LLM A/B when measured', async () => {
    await i18n.changeLanguage('es');
    const { unmount } = render(<QualityCard quality={{ ...quality, measured: false, chrf: null, bleu: null, margin: null, held_out: 0, history: [] }} />);
    expect(screen.getByTestId('quality-too-small')).toHaveTextContent('Demasiado pequeño para medir');
    unmount();
    await i18n.changeLanguage('en');
    render(<QualityCard quality={{ ...quality, ab: { builtin: { chrf: 0.41, bleu: 0.1, margin: 0.2 }, llm: { chrf: 0.5, bleu: 0.2, margin: 0.3 }, pairs: 50, created_at: quality.created_at } }} />);
    expect(screen.getByTestId('quality-ab')).toHaveTextContent('Built-in and LLM engines on the same 50 held-out pairs');
  });

  it('before the first report', () => {
    render(<QualityCard quality={null} />);
    expect(screen.getByTestId('quality-card')).toHaveTextContent('The quality report appears after the next build');
  });
});

import type { AgentDto, AgentQuality } from '@gaia/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from 'i18next';
import { queryKeys } from '../../api/queries';
import { QualityCard } from './quality-card';

const entry = (version: string, chrf: number) => ({
  version,
  chrf,
  bleu: chrf / 3,
  margin: chrf / 2,
  held_out: 100,
  pair_count: 2000,
  created_at: '2026-11-24T05:00:00.000Z',
});
const quality: AgentQuality = {
  ...entry('v2', 0.41),
  measured: true,
  category: 'tiny',
  ab: null,
  history: [entry('v1', 0.35), entry('v2', 0.41)],
};
const agent = (over: Partial<AgentDto> = {}): AgentDto => ({
  id: 'agent-1',
  src_lang: 'es',
  tgt_lang: 'qu',
  custom_prompt: '',
  core_memory: '',
  learned_memory: '',
  public: false,
  created_at: '2026-11-24T05:00:00.000Z',
  uid: 'owner-1',
  sharedWithEmails: [],
  document_source: null,
  processing_task_id: null,
  processing_status: 'COMPLETED',
  processing_error: null,
  document_count: 1,
  text_blocks_extracted: 2000,
  pair_count: 2000,
  engine: 'builtin',
  quality,
  ...over,
});
const client = new QueryClient();
const withQuery = (ui: ReactElement) => <QueryClientProvider client={client}>{ui}</QueryClientProvider>;

describe('QualityCard', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('shows the scores, the resource-size category and the history as an inline SVG chart', () => {
    render(withQuery(<QualityCard agent={agent()} />));
    expect(screen.getByTestId('quality-chrf')).toHaveTextContent('0.41');
    expect(screen.getByTestId('quality-held-out')).toHaveTextContent('100');
    expect(screen.getByTestId('quality-category')).toHaveTextContent('Tiny (under 10K pairs)');
    const chart = screen.getByTestId('quality-chart');
    expect(chart.querySelectorAll('circle')).toHaveLength(2);
    expect(chart).toHaveAttribute('aria-label', 'chrF of 2 versions');
  });

  it('says when the agent is too small to measure, and shows the LLM A/B when measured', async () => {
    await i18n.changeLanguage('es');
    const { unmount } = render(
      withQuery(<QualityCard agent={agent({ quality: { ...quality, measured: false, chrf: null, bleu: null, margin: null, held_out: 0, history: [] } })} />),
    );
    expect(screen.getByTestId('quality-too-small')).toHaveTextContent('Demasiado pequeño para medir');
    unmount();
    await i18n.changeLanguage('en');
    render(
      withQuery(
        <QualityCard
          agent={agent({
            quality: {
              ...quality,
              ab: { builtin: { chrf: 0.41, bleu: 0.1, margin: 0.2 }, llm: { chrf: 0.5, bleu: 0.2, margin: 0.3 }, pairs: 50, created_at: quality.created_at },
            },
          })}
        />,
      ),
    );
    expect(screen.getByTestId('quality-ab')).toHaveTextContent('Built-in and LLM engines on the same 50 held-out pairs');
  });

  it('before the first report', () => {
    render(withQuery(<QualityCard agent={agent({ quality: null })} />));
    expect(screen.getByTestId('quality-card')).toHaveTextContent('The quality report appears after the next build');
  });

  it('reads the agent again when a build ends on the open page (the new report)', () => {
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const { rerender } = render(withQuery(<QualityCard agent={agent({ processing_status: 'PROCESSING' })} />));
    expect(invalidate).not.toHaveBeenCalled();
    rerender(withQuery(<QualityCard agent={agent({ processing_status: 'COMPLETED' })} />));
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.agent('agent-1'), exact: true });
  });
});

import type { AgentDto, AgentQuality } from '@gaia/contracts';
import { QueryClient, QueryClientProvider, timeoutManager, useQuery } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from 'i18next';
import { createQueryClient } from '../../api/query-client';
import { agentQuery, queryKeys } from '../../api/queries';
import { agentDto, useRouteServer } from '../../test/api-server';
import { QualityCard, REPORT_POLL_MS, REPORT_WAIT_MS } from './quality-card';

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
const agent = (over: Partial<AgentDto> = {}): AgentDto => agentDto({ quality, ...over });
/** The query cache's poll timers (refetchInterval) that are running, by delay; real timers underneath. */
const polls = new Map<ReturnType<typeof setInterval>, number>();
timeoutManager.setTimeoutProvider({
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (id) => clearTimeout(id),
  setInterval: (callback, ms) => {
    const id = setInterval(callback, ms);
    polls.set(id, ms);
    return id;
  },
  clearInterval: (id) => {
    if (id === undefined) return;
    polls.delete(id);
    clearInterval(id);
  },
});
const polling = () => [...polls.values()];

const client = new QueryClient();
const withQuery = (ui: ReactElement) => <QueryClientProvider client={client}>{ui}</QueryClientProvider>;

/** What GET /api/agents/agent-1 answers, and how many times it was read. */
let served: AgentDto = agent();
let reads = 0;
useRouteServer((req) => {
  if (req.method !== 'GET' || req.path !== '/api/agents/agent-1') return undefined;
  reads++;
  return [200, served];
});

/** As the agent page: the card shows the cached agent, which its own reads refresh. */
function AgentPageStandIn() {
  const { data } = useQuery(agentQuery('agent-1'));
  return data ? <QualityCard agent={data as AgentDto} /> : null;
}

/** Polling reads land within a few intervals; this bounds the wait for a condition, it does not time anything. */
const REPORT_WAIT = { timeout: 15_000 };

describe('QualityCard', () => {
  afterEach(async () => {
    vi.useRealTimers();
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

  it('after a build ends on the open page, says the report is being measured and keeps reading the agent until it lands', async () => {
    const queryClient = createQueryClient({ retry: false });
    served = agent({ processing_status: 'PROCESSING', processing_task_id: 'task-2', quality: null });
    render(
      <QueryClientProvider client={queryClient}>
        <AgentPageStandIn />
      </QueryClientProvider>,
    );
    expect(await screen.findByTestId('quality-card')).toHaveTextContent('The quality report appears after the next build');
    // The build ends: the agent is ready at once, its report follows (docs/adr/0006).
    served = agent({ processing_status: 'COMPLETED', processing_task_id: null, quality: null });
    queryClient.setQueryData(queryKeys.agent('agent-1'), served);
    expect(await screen.findByTestId('quality-measuring')).toHaveTextContent('Measuring quality on held-out pairs…');
    expect(screen.getByTestId('quality-card')).not.toHaveTextContent('The quality report appears after the next build');
    // the card's query takes its poll interval in an effect, after the text is on the page: waited on, not assumed
    await waitFor(() => expect(polling()).toEqual([REPORT_POLL_MS]), REPORT_WAIT);
    const readsWhenReady = reads;
    await waitFor(() => expect(reads).toBeGreaterThan(readsWhenReady), REPORT_WAIT);
    // The server answered COMPLETED without a report: still measuring.
    expect(screen.getByTestId('quality-measuring')).toBeInTheDocument();
    served = agent({ processing_status: 'COMPLETED', processing_task_id: null, quality: { ...quality, version: 'task-2' } });
    await waitFor(() => expect(screen.getByTestId('quality-chrf')).toHaveTextContent('0.41'), REPORT_WAIT);
    expect(screen.queryByTestId('quality-measuring')).toBeNull();
    // The report landed: the card reads the agent no more (its poll stops in the same kind of effect).
    await waitFor(() => expect(polling()).toEqual([]), REPORT_WAIT);
  });

  it("waits for the new version's report when the agent already had one", async () => {
    await i18n.changeLanguage('es');
    const queryClient = createQueryClient({ retry: false });
    const previous: AgentQuality = { ...quality, version: 'task-1', chrf: 0.35, history: [entry('task-1', 0.35)] };
    served = agent({ processing_status: 'PROCESSING', processing_task_id: 'task-2', quality: previous });
    render(
      <QueryClientProvider client={queryClient}>
        <AgentPageStandIn />
      </QueryClientProvider>,
    );
    expect(await screen.findByTestId('quality-chrf')).toHaveTextContent('0,35');
    served = agent({ processing_status: 'COMPLETED', processing_task_id: null, quality: previous });
    queryClient.setQueryData(queryKeys.agent('agent-1'), served);
    expect(await screen.findByTestId('quality-measuring')).toHaveTextContent('Midiendo la calidad con los pares apartados…');
    served = agent({ processing_status: 'COMPLETED', processing_task_id: null, quality: { ...quality, version: 'task-2' } });
    await waitFor(() => expect(screen.getByTestId('quality-chrf')).toHaveTextContent('0,41'), REPORT_WAIT);
    expect(screen.queryByTestId('quality-measuring')).toBeNull();
  });

  /** The stand-in page after a build ended on it: the card measures and polls (only the card polls here). */
  async function measuring(queryClient: QueryClient) {
    served = agent({ processing_status: 'PROCESSING', processing_task_id: 'task-3', quality: null });
    const view = render(
      <QueryClientProvider client={queryClient}>
        <AgentPageStandIn />
      </QueryClientProvider>,
    );
    await screen.findByTestId('quality-card');
    // From here the clock of the wait moves only when the test moves it (the polls themselves stay on real time).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    served = agent({ processing_status: 'COMPLETED', processing_task_id: null, quality: null });
    act(() => void queryClient.setQueryData(queryKeys.agent('agent-1'), served));
    expect(screen.getByTestId('quality-measuring')).toBeInTheDocument();
    expect(polling()).toEqual([REPORT_POLL_MS]);
    return view;
  }

  it('stops reading the agent once the wait for a report reaches its cap, and says there is no report', async () => {
    await measuring(createQueryClient({ retry: false }));
    act(() => vi.advanceTimersByTime(REPORT_WAIT_MS - 1));
    expect(screen.getByTestId('quality-measuring')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByTestId('quality-measuring')).toBeNull();
    expect(screen.getByTestId('quality-card')).toHaveTextContent('The quality report appears after the next build');
    expect(polling()).toEqual([]);
  });

  it('stops reading the agent when the page goes away while it waits', async () => {
    const { unmount } = await measuring(createQueryClient({ retry: false }));
    unmount();
    expect(polling()).toEqual([]);
  });
});

import { fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { agentDto, usageSummaryOf, useApiServer } from '../../test/api-server';
import { renderDashboard } from '../test/render';
import { OverviewTab } from './overview-tab';

const server = useApiServer({ signedIn: true });

describe('Dashboard tab', () => {
  it('welcomes by display name and counts 2 language pairs per agent, own and shared', async () => {
    server.owned = [agentDto({ id: 'a1', public: true }), agentDto({ id: 'a2', src_lang: 'aymara' })];
    server.shared = [agentDto({ id: 'a3', uid: 'someone', src_lang: 'guarani' })];
    server.summary = usageSummaryOf(
      {
        total_requests: 1234,
        total_words: 5000,
        total_cost: 0.0421,
        plan: 'Free',
        series: [
          { date: '2025-08-20', requests: 4, words: 20, cost: 0.001 },
          { date: '2025-08-21', requests: 9, words: 50, cost: 0.002 },
        ],
      },
      { api_calls_today: 9 },
    );
    renderDashboard(<OverviewTab />);
    expect(await screen.findByRole('heading', { name: 'Welcome, Ana' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('stat-agents')).toHaveTextContent('3'));
    expect(screen.getByTestId('stat-pairs')).toHaveTextContent('Language Pairs6');
    await waitFor(() => expect(screen.getByTestId('stat-requests')).toHaveTextContent('1,234'));
    expect(screen.getByTestId('stat-cost')).toHaveTextContent('$0.042100');
    // The plan's limit is on the dashboard too: calls today of the Free plan's 10.
    expect(screen.getByTestId('limit-calls')).toHaveTextContent('9 of 10');

    const rows = screen.getAllByTestId('agent-row');
    expect(rows.map((r) => r.getAttribute('href'))).toEqual(['/dashboard/a1', '/dashboard/a2', '/dashboard/a3']);
    expect(rows[0]).toHaveTextContent('Quechua → Spanish');
    expect(rows[0]).toHaveTextContent('Public');
    expect(rows[1]).toHaveTextContent('Private');
    expect(rows[1]).toHaveTextContent('Created Aug 1, 2025');
    expect(rows[2]).toHaveTextContent('Shared with you');
  });

  it('shows the empty state with a create button', async () => {
    renderDashboard(<OverviewTab />);
    const empty = await screen.findByTestId('agents-empty');
    expect(empty).toHaveTextContent('No agents yet');
    expect(screen.getByRole('link', { name: 'Create your first agent' })).toHaveAttribute('href', '/dashboard?tab=builder');
    expect(screen.getByTestId('stat-pairs')).toHaveTextContent('0');
    expect(screen.getByTestId('stat-cost')).toHaveTextContent('$0.000000');
  });

  it('draws the usage chart as an SVG image with a data table, switching metrics', async () => {
    server.summary = usageSummaryOf({
      total_requests: 13,
      total_words: 70,
      total_cost: 0.003,
      plan: 'Free',
      series: [
        { date: '2025-08-20', requests: 4, words: 20, cost: 0.001 },
        { date: '2025-08-21', requests: 9, words: 50, cost: 0.002 },
      ],
    });
    renderDashboard(<OverviewTab />);
    const chart = await screen.findByRole('img', { name: /Requests per day/ });
    expect(chart).toHaveAccessibleName('Requests per day 2 days, total 13, highest day 9.');
    fireEvent.click(screen.getByRole('radio', { name: 'Cost' }));
    expect(screen.getByRole('img', { name: /Cost per day/ })).toHaveAccessibleName('Cost per day 2 days, total $0.003000, highest day $0.002000.');
    expect(screen.getByRole('table')).toHaveTextContent('$0.002000');
  });

  describe('quality on the agent cards', () => {
    afterEach(async () => {
      await i18n.changeLanguage('en');
    });
    const summary = {
      version: 'v1',
      measured: true,
      chrf: 0.8717,
      bleu: 0.62,
      margin: 0.5196,
      held_out: 20,
      pair_count: 288,
      category: 'tiny' as const,
      created_at: '2025-08-02T00:00:00Z',
    };

    it("shows each agent's latest chrF, margin and size category, and only the category when too small to measure (en, es)", async () => {
      server.owned = [
        agentDto({ id: 'a1', quality_summary: summary }),
        agentDto({ id: 'a2', quality_summary: { ...summary, measured: false, chrf: null, bleu: null, margin: null, held_out: 0, pair_count: 12 } }),
        agentDto({ id: 'a3', quality_summary: null }),
      ];
      const { unmount } = renderDashboard(<OverviewTab />);
      await waitFor(() => expect(screen.getAllByTestId('agent-row')).toHaveLength(3));
      const q = () => screen.getAllByTestId('agent-row').map((r) => r.querySelector('[data-testid="agent-quality"]')?.textContent ?? null);
      expect(q()).toEqual(['chrF 0.872 · margin 0.52 · Tiny (under 10K pairs)', 'Tiny (under 10K pairs)', null]);
      unmount();
      await i18n.changeLanguage('es');
      renderDashboard(<OverviewTab />);
      await waitFor(() => expect(screen.getAllByTestId('agent-row')).toHaveLength(3));
      expect(q()[0]).toBe('chrF 0,872 · margen 0,52 · Diminuto (menos de 10K pares)');
    });
  });
});

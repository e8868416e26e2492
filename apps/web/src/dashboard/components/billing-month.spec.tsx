import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { UsageSummaryDto } from '@gaia/contracts';
import { i18n } from '../../i18n';
import { BillingMonth } from './billing-month';

const period = (over: Partial<UsageSummaryDto['period']> = {}): UsageSummaryDto => ({
  total_requests: 3,
  total_words: 12_000,
  total_cost: 0,
  plan: 'Enterprise',
  series: [],
  period: {
    start: '2026-11-01T00:00:00.000Z',
    end: '2026-12-01T00:00:00.000Z',
    words: 12_000,
    included_words: 68_332,
    overage_words: 334,
    overage_cost: 0.84,
    plan_price: 676.67,
    amount_due: 677.5,
    api_calls_today: 0,
    daily_api_calls: null,
    segments: [
      {
        plan: 'starter',
        start: '2026-11-01T00:00:00.000Z',
        end: '2026-11-11T00:00:00.000Z',
        share: 1 / 3,
        words: 2_000,
        included_words: 1_666,
        overage_words: 334,
        overage_cost: 0.84,
        plan_price: 10,
      },
      {
        plan: 'enterprise',
        start: '2026-11-11T00:00:00.000Z',
        end: '2026-12-01T00:00:00.000Z',
        share: 2 / 3,
        words: 10_000,
        included_words: 66_666,
        overage_words: 0,
        overage_cost: 0,
        plan_price: 666.67,
      },
    ],
    ...over,
  },
});

describe('BillingMonth', () => {
  it('shows words used of included, overage so far, the amount due and the proration of a plan change', async () => {
    await i18n.changeLanguage('en');
    render(<BillingMonth summary={period()} />);
    expect(screen.getByTestId('billing-words')).toHaveTextContent('12,000 of 68,332 included');
    expect(screen.getByTestId('billing-overage')).toHaveTextContent('334 words · $0.84');
    expect(screen.getByTestId('billing-due')).toHaveTextContent('$677.50');
    expect(screen.getByTestId('billing-prorated')).toHaveTextContent('Prorated: Starter 33% of the month · Enterprise 67% of the month');
    expect(screen.getByText(/Nov 1 – Nov 30/)).toBeInTheDocument();
  });

  it('on Free: words are shown but not billed; in Spanish', async () => {
    await i18n.changeLanguage('es');
    render(
      <BillingMonth summary={period({ words: 90, included_words: null, overage_words: 0, overage_cost: 0, plan_price: 0, amount_due: 0, segments: [] })} />,
    );
    expect(screen.getByTestId('billing-words')).toHaveTextContent('90 (el plan Gratis cuenta llamadas a la API, no palabras)');
    expect(screen.getByRole('heading')).toHaveTextContent('Este mes de facturación');
    expect(screen.queryByTestId('billing-prorated')).toBeNull();
    await i18n.changeLanguage('en');
  });
});

import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useRouteServer, user } from '../../test/api-server';
import { renderAt } from '../../test/render';
import { PricingPage } from './pricing-page';

/** The gateway's wire format for the session and POST /api/plans/request (plans as the billing service answers). */
const PLANS = {
  free: { id: 'free', name: 'Free', price: 0, period: 'month', daily_api_calls: 10, included_words: null, overage_per_1000_words: null },
  starter: { id: 'starter', name: 'Starter', price: 30, period: 'month', daily_api_calls: null, included_words: 5000, overage_per_1000_words: 2.5 },
};
let signedIn = true;
const asked: string[] = [];

beforeEach(() => {
  signedIn = true;
  asked.length = 0;
});
useRouteServer(({ method, path, body }) => {
  if (path === '/api/auth/session') return [200, { user: signedIn ? user() : null }];
  if (path === '/api/plans/request' && method === 'POST') {
    const plan = String(body['plan']);
    asked.push(plan);
    if (plan === 'free') return [200, { status: 'active', plan: PLANS.free, request: null }];
    return [
      200,
      {
        status: 'requested',
        plan: PLANS.free,
        request: { id: 'r1', user_id: 'u-1', plan, status: 'pending', requested_at: '2026-11-24T00:00:00.000Z', granted_at: null },
      },
    ];
  }
  return undefined;
});

describe("Pricing's Get Started", () => {
  it('Free starts at once; Starter records a request and says the provider will set it up', async () => {
    renderAt(<PricingPage />, { route: '/pricing', path: '/pricing' });
    const buttons = await screen.findAllByRole('button', { name: 'Get Started' });
    expect(buttons).toHaveLength(3);
    fireEvent.click(buttons[0]);
    expect(await screen.findByTestId('plan-answer-free')).toHaveTextContent('You are on the Free plan: 10 API calls a day, starting now.');
    fireEvent.click(buttons[1]);
    expect(await screen.findByTestId('plan-answer-starter')).toHaveTextContent('Request recorded. The provider will contact you to set up Starter');
    expect(asked).toEqual(['free', 'starter']);
  });

  it('signed out, Get Started leads to the dashboard (sign-in) and asks nothing', async () => {
    signedIn = false;
    renderAt(<PricingPage />, { route: '/pricing', path: '/pricing' });
    const links = await screen.findAllByRole('link', { name: 'Get Started' });
    expect(links).toHaveLength(3);
    expect(links[0]).toHaveAttribute('href', '/dashboard');
    expect(asked).toEqual([]);
  });
});

import { fireEvent, screen } from '@testing-library/react';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { routeFetch, user } from '../../test/api-server';
import { renderAt } from '../../test/render';
import { PricingPage } from './pricing-page';

/** The gateway's wire format for the session and POST /api/plans/request (plans as the billing service answers). */
const PLANS = {
  free: { id: 'free', name: 'Free', price: 0, period: 'month', daily_api_calls: 10, included_words: null, overage_per_1000_words: null },
  starter: { id: 'starter', name: 'Starter', price: 30, period: 'month', daily_api_calls: null, included_words: 5000, overage_per_1000_words: 2.5 },
};
let server: Server;
let restore: () => void;
let signedIn = true;
const asked: string[] = [];

beforeEach(async () => {
  signedIn = true;
  asked.length = 0;
  server = createServer(async (req, res) => {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/api/auth/session') return json(200, { user: signedIn ? user() : null });
    if (req.url === '/api/plans/request' && req.method === 'POST') {
      let raw = '';
      for await (const c of req) raw += c;
      const { plan } = JSON.parse(raw) as { plan: string };
      asked.push(plan);
      if (plan === 'free') return json(200, { status: 'active', plan: PLANS.free, request: null });
      return json(200, { status: 'requested', plan: PLANS.free, request: { id: 'r1', user_id: 'u-1', plan, status: 'pending', requested_at: '2026-11-24T00:00:00.000Z', granted_at: null } });
    }
    return json(404, { error: 'Not found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  restore = routeFetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterEach(async () => {
  restore();
  await new Promise((r) => server.close(r));
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

import { QueryClient, useQueryClient } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { agentDto, keyUsageOf, usageSummaryOf, useApiServer } from '../../test/api-server';
import { queryKeys } from '../../api/queries';
import { renderDashboard } from '../test/render';
import { ApiTab } from './api-tab';

const server = useApiServer({ signedIn: true });
beforeEach(() => {
  server.owned = [agentDto()];
});

describe('API tab', () => {
  it('needs a non-blank name to create a key', async () => {
    renderDashboard(<ApiTab />);
    await screen.findByText('No API keys yet.');
    const create = screen.getByRole('button', { name: 'Create key' });
    expect(create).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Key name'), { target: { value: '   ' } });
    expect(create).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Key name'), { target: { value: 'Server' } });
    expect(create).toBeEnabled();
  });

  it("shows a new key once, in a modal that only 'I've saved my key' closes", async () => {
    renderDashboard(<ApiTab />);
    await screen.findByText('No API keys yet.');
    fireEvent.change(screen.getByLabelText('Key name'), { target: { value: '  Research server ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(screen.getByTestId('new-api-key')).toHaveTextContent('gaia_sk_abSECRET1');
    expect(server.received.find((r) => r.path === '/api/api-keys/create/')?.body).toEqual({ name: 'Research server' });
    expect(server.received.find((r) => r.path === '/api/api-keys/create/')?.headers['content-type']).toContain('application/json');

    fireEvent.keyDown(document, { key: 'Escape' });
    fireEvent.mouseDown(dialog.parentElement!);
    expect(screen.getByRole('dialog', { name: 'Your new API key' })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: "I've saved my key" }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.body.textContent).not.toContain('gaia_sk_abSECRET1');
    expect(await screen.findAllByTestId('api-key-row')).toHaveLength(1);
    expect(screen.getByTestId('api-key-row')).toHaveTextContent('Research server');
  });

  it('shows per-key usage with costs to 6 decimals', async () => {
    server.keys = [{ key_id: 'k1', name: 'Lab', prefix: 'gaia_sk_xy', created_at: '2025-08-20T00:00:00.000Z', revoked: false }];
    server.usage = keyUsageOf({
      total_requests: 3,
      input_cost: 0.000123,
      output_cost: 0.0015,
      total_cost: 0.001623,
      average_tokens_per_request: 41.5,
      requests: [{ input_tokens: 20, output_tokens: 30, created_at: '2025-08-20T10:00:00.000Z', words: 4 }],
    });
    renderDashboard(<ApiTab />);
    // The first active key's usage shows without a click; the button toggles it.
    const panel = await screen.findByTestId('key-usage');
    expect(screen.getByRole('button', { name: 'Usage Lab' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(screen.getByTestId('usage-requests')).toHaveTextContent('3'));
    expect(screen.getByTestId('usage-cost')).toHaveTextContent('$0.001623');
    expect(panel).toHaveTextContent('$0.000123');
  });

  it('shows the limit that binds on the Free plan: calls today of 10, not the looser 1,000 a day of the key', async () => {
    server.keys = [{ key_id: 'k1', name: 'Lab', prefix: 'gaia_sk_xy', created_at: '2025-08-20T00:00:00.000Z', revoked: false }];
    server.usage = keyUsageOf({ total_requests: 3, requests_today: 3, rate_limit: 1000 });
    server.summary = usageSummaryOf({ plan: 'Free' }, { api_calls_today: 3, daily_api_calls: 10 });
    renderDashboard(<ApiTab />);
    const limits = await screen.findByTestId('plan-limits');
    expect(limits).toHaveTextContent('Plan: Free');
    await waitFor(() => expect(screen.getByTestId('limit-calls')).toHaveTextContent('API calls today3 of 10'));
    await waitFor(() => expect(screen.getByTestId('usage-requests')).toHaveTextContent('3'));
    expect(screen.queryByTestId('limit-key')).toBeNull();
    expect(screen.queryByTestId('limit-words')).toBeNull();
    expect(document.body.textContent).not.toContain('requests per day');
  });

  it('shows words this month of the included words and the overage on a paid plan, and the key limit that is then the only daily one', async () => {
    server.keys = [{ key_id: 'k1', name: 'Lab', prefix: 'gaia_sk_xy', created_at: '2025-08-20T00:00:00.000Z', revoked: false }];
    server.usage = keyUsageOf({ requests_today: 40, rate_limit: 1000 });
    server.summary = usageSummaryOf({ plan: 'Starter' }, { words: 5_400, included_words: 5_000, overage_words: 400, overage_cost: 1, daily_api_calls: null });
    renderDashboard(<ApiTab />);
    const words = await screen.findByTestId('limit-words');
    expect(words).toHaveTextContent('Words this month5,400 of 5,000 included');
    expect(screen.getByTestId('limit-overage')).toHaveTextContent('Overage: 400 words ($1.000000)');
    expect(screen.queryByTestId('limit-calls')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('limit-key')).toHaveTextContent('Requests today with Lab40 of 1,000'));
  });

  it('revokes a key after confirmation', async () => {
    server.keys = [{ key_id: 'k1', name: 'Lab', prefix: 'gaia_sk_xy', created_at: '2025-08-20T00:00:00.000Z', revoked: false }];
    renderDashboard(<ApiTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke Lab' }));
    expect(screen.getByRole('alertdialog')).toHaveTextContent('Revoke the key “Lab”?');
    fireEvent.click(screen.getByRole('button', { name: 'Revoke' }));
    await screen.findByText('Revoked');
    expect(server.received.find((r) => r.path === '/api/api-keys/revoke/')?.body).toEqual({ key_id: 'k1' });
    expect(screen.queryByRole('button', { name: 'Revoke Lab' })).toBeNull();
  });

  it('shows a cURL example for the selected agent', async () => {
    server.owned = [agentDto(), agentDto({ id: 'agent-2', src_lang: 'guarani', tgt_lang: 'spanish' })];
    renderDashboard(<ApiTab />);
    const select = await screen.findByLabelText('Agent');
    await waitFor(() => expect(screen.getByTestId('curl-example')).toHaveTextContent('"model_id":"agent-1"'));
    fireEvent.change(select, { target: { value: 'agent-2' } });
    expect(screen.getByTestId('curl-example')).toHaveTextContent('"model_id":"agent-2"');
    expect(screen.getByTestId('curl-example')).toHaveTextContent('"src_lang":"guarani"');
  });

  it('falls back to the first agent when the picked one leaves the list', async () => {
    server.owned = [agentDto(), agentDto({ id: 'agent-2', src_lang: 'guarani', tgt_lang: 'spanish' })];
    let queryClient: QueryClient | undefined;
    function CacheHandle() {
      queryClient = useQueryClient();
      return null;
    }
    renderDashboard(
      <>
        <ApiTab />
        <CacheHandle />
      </>,
    );
    fireEvent.change(await screen.findByLabelText('Agent'), { target: { value: 'agent-2' } });
    expect(screen.getByTestId('curl-example')).toHaveTextContent('"model_id":"agent-2"');
    // agent-2 is deleted (in another tab): the next read of the list no longer has it.
    server.owned = [agentDto()];
    await act(() => queryClient?.invalidateQueries({ queryKey: queryKeys.agents }));
    await waitFor(() => expect(screen.getByTestId('curl-example')).toHaveTextContent('"model_id":"agent-1"'));
    expect(screen.getByLabelText('Agent')).toHaveValue('agent-1');
  });
});

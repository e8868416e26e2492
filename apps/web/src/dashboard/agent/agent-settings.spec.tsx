import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { agentDto, useApiServer } from '../../test/api-server';
import { UPDATE_RELOAD_MS } from '../lib/rules';
import { renderDashboard } from '../test/render';
import { AgentSettings } from './agent-settings';

const server = useApiServer({ signedIn: true });
beforeEach(() => {
  server.owned = [agentDto()];
});
// Runs before the server closes (after-hooks run in reverse order of registration).
afterEach(() => {
  vi.useRealTimers();
});

describe('Agent Settings', () => {
  it('reloads the page 15 s after a successful update', async () => {
    const reload = vi.fn();
    let updated = () => {};
    const answered = new Promise<void>((r) => (updated = r));
    const onUpdated = vi.fn(() => updated());
    renderDashboard(<AgentSettings agent={agentDto()} onUpdated={onUpdated} reload={reload} />);
    fireEvent.click(screen.getByRole('button', { name: 'Edit Agent' }));
    fireEvent.change(screen.getByLabelText('Target language *'), { target: { value: 'English' } });
    const answer = server.hold('PATCH /api/agents/agent-1');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    // Real timers while the request goes out; the server holds its answer once it has it.
    await waitFor(() => expect(server.received.map((r) => `${r.method} ${r.path}`)).toContain('PATCH /api/agents/agent-1'));
    // From here the clock moves only when the test moves it: the answer lands, the reload is scheduled on the fake clock.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await act(async () => {
      answer();
      await answered;
    });
    expect(screen.getByText('Agent updated successfully! The page will reload in 15 seconds.')).toBeInTheDocument();
    expect(onUpdated).toHaveBeenCalledWith(expect.objectContaining({ tgt_lang: 'english' }), undefined);
    act(() => vi.advanceTimersByTime(UPDATE_RELOAD_MS - 1));
    expect(reload).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("prefixes the server's message: 'Failed to update agent: …'", async () => {
    server.fail.set('PATCH /api/agents/agent-1', [400, { error: 'Source and target language must differ.' }]);
    renderDashboard(<AgentSettings agent={agentDto()} onUpdated={vi.fn()} reload={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Edit Agent' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to update agent: Source and target language must differ.');
  });
});

import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { agentDto, useDashboardServer } from '../test/dashboard-server';
import { renderDashboard } from '../test/render';
import { AgentSettings } from './agent-settings';

const server = useDashboardServer();
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
    const onUpdated = vi.fn();
    renderDashboard(<AgentSettings agent={agentDto()} onUpdated={onUpdated} reload={reload} />);
    fireEvent.click(screen.getByRole('button', { name: 'Edit Agent' }));
    fireEvent.change(screen.getByLabelText('Target language *'), { target: { value: 'English' } });
    // The clock also follows real time (the request to the server needs it); the test then jumps ahead.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'], shouldAdvanceTime: true });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Agent updated successfully! The page will reload in 15 seconds.')).toBeInTheDocument();
    expect(onUpdated).toHaveBeenCalledWith(expect.objectContaining({ tgt_lang: 'english' }), undefined);
    act(() => vi.advanceTimersByTime(14_500));
    expect(reload).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(600));
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

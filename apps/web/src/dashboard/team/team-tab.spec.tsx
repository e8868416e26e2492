import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routeFetch, startApiServer, type ApiServer } from '../../test/api-server';
import { renderDashboard } from '../test/render';
import i18n from 'i18next';
import { TeamTab } from './team-tab';

let server: ApiServer;
let restore: () => void;
beforeEach(async () => {
  server = await startApiServer({ signedIn: true });
  server.members = [{ id: 'm1', name: 'Luis Mamani', email: 'luis@example.org', role: 'Editor', status: 'invited', addedAt: '2025-08-02T00:00:00.000Z' }];
  restore = routeFetch(server.origin);
});
afterEach(async () => {
  vi.useRealTimers();
  restore();
  await server.close();
});

async function openTeam() {
  renderDashboard(<TeamTab />);
  await screen.findByRole('button', { name: 'Remove Luis Mamani' });
}
const memberNames = () => screen.queryAllByTestId('team-member').map((li) => li.querySelector('strong')?.textContent);

describe('Team tab', () => {
  it("asks 'Please fill in all fields.' and clears the error after 3 s", async () => {
    await openTeam();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'x@example.org' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add editor' }));
    expect(screen.getByTestId('team-error')).toHaveTextContent('Please fill in all fields.');
    act(() => vi.advanceTimersByTime(2999));
    expect(screen.getByTestId('team-error')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByTestId('team-error')).toBeNull();
    expect(server.received.some((r) => r.method === 'POST')).toBe(false);
  });

  it("asks 'Please enter a valid email address.' for a malformed email", async () => {
    await openTeam();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Rosa' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'rosa@nowhere' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add editor' }));
    expect(screen.getByTestId('team-error')).toHaveTextContent('Please enter a valid email address.');
  });

  it('invites an editor (email lowercased) and lists them as an invited Editor', async () => {
    await openTeam();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Rosa Huamán' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'Rosa@Example.org' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add editor' }));
    await screen.findByRole('button', { name: 'Remove Rosa Huamán' });
    expect(server.received.find((r) => r.method === 'POST' && r.path === '/api/team/members')?.body).toEqual({
      name: 'Rosa Huamán',
      email: 'rosa@example.org',
    });
    expect(memberNames()).toEqual(['Luis Mamani', 'Rosa Huamán']);
    expect(screen.getAllByText('Editor').length).toBeGreaterThanOrEqual(2);
    expect(screen.getAllByText('Invited').length).toBe(2);
  });

  it("shows 'Failed to add editor. Please try again.' when the server fails", async () => {
    server.fail.set('POST /api/team/members', [500, { error: 'boom' }]);
    await openTeam();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Rosa' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'rosa@example.org' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add editor' }));
    expect(await screen.findByTestId('team-error')).toHaveTextContent('Failed to add editor. Please try again.');
  });

  it('words a refusal of the server by its code in the UI language (Spanish), not in the English of the message', async () => {
    server.fail.set('POST /api/team/members', [409, { error: 'This person is already a member of your team.' }, 'member_exists']);
    await i18n.changeLanguage('es');
    try {
      renderDashboard(<TeamTab />);
      await screen.findByText('Luis Mamani');
      fireEvent.change(screen.getByLabelText('Nombre'), { target: { value: 'Rosa' } });
      fireEvent.change(screen.getByLabelText('Correo electrónico'), { target: { value: 'rosa@example.org' } });
      fireEvent.click(screen.getByRole('button', { name: 'Añadir editor' }));
      expect(await screen.findByTestId('team-error')).toHaveTextContent('Esta persona ya es miembro de tu equipo.');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it("asks 'Are you sure you want to remove this member?' before removing", async () => {
    await openTeam();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Luis Mamani' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveTextContent('Are you sure you want to remove this member?');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(memberNames()).toEqual(['Luis Mamani']);
    expect(server.received.some((r) => r.method === 'DELETE')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Remove Luis Mamani' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(memberNames()).toEqual([]));
    expect(server.received.some((r) => r.method === 'DELETE' && r.path === '/api/team/members/m1')).toBe(true);
    expect(screen.getByText('No team members yet.')).toBeInTheDocument();
  });
});

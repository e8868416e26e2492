import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routeFetch, startApiServer, type ApiServer } from '../../test/api-server';
import { renderDashboard } from '../test/render';
import i18n from 'i18next';
import { AccountTab } from './account-tab';

let server: ApiServer;
let restore: () => void;
beforeEach(async () => {
  server = await startApiServer({ signedIn: true });
  restore = routeFetch(server.origin);
});
afterEach(async () => {
  vi.useRealTimers();
  restore();
  await server.close();
});

describe('Account tab', () => {
  it("shows account type 'Standard' and the creation and last sign-in times", async () => {
    renderDashboard(<AccountTab />);
    expect(await screen.findByTestId('account-type')).toHaveTextContent('Standard');
    expect(screen.getByText(/August 1, 2025/)).toBeInTheDocument();
    expect(screen.getByText(/August 20, 2025/)).toBeInTheDocument();
    expect(screen.getByText('ana@example.org')).toBeInTheDocument();
  });

  it('names the plan in the UI language (Spanish: Gratis)', async () => {
    await i18n.changeLanguage('es');
    try {
      renderDashboard(<AccountTab />);
      expect(await screen.findByTestId('account-plan')).toHaveTextContent('Gratis');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('cancel restores the original value without saving', async () => {
    renderDashboard(<AccountTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Display name' }));
    fireEvent.change(screen.getByLabelText('Display name'), { target: { value: 'Changed' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByTestId('profile-displayName')).toHaveTextContent('Ana');
    fireEvent.click(screen.getByRole('button', { name: 'Edit Display name' }));
    expect(screen.getByLabelText('Display name')).toHaveValue('Ana');
    expect(server.received.some((r) => r.method === 'PATCH')).toBe(false);
  });

  it("saves a field and shows 'Changes saved' for 3 s", async () => {
    renderDashboard(<AccountTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Full name' }));
    fireEvent.change(screen.getByLabelText('Full name'), { target: { value: 'Ana María Quispe' } });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'], shouldAdvanceTime: true });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByTestId('account-saved')).toHaveTextContent('Changes saved');
    expect(screen.getByTestId('profile-fullName')).toHaveTextContent('Ana María Quispe');
    expect(server.received.find((r) => r.method === 'PATCH')?.body).toEqual({ fullName: 'Ana María Quispe' });
    act(() => vi.advanceTimersByTime(2_500));
    expect(screen.getByTestId('account-saved')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(600));
    expect(screen.queryByTestId('account-saved')).toBeNull();
  });

  it("shows 'Failed to save changes' and stays in edit mode", async () => {
    server.fail.set('PATCH /api/account', [500, { error: 'db down' }]);
    renderDashboard(<AccountTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Full name' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to save changes');
    expect(screen.getByLabelText('Full name')).toBeInTheDocument();
  });
});

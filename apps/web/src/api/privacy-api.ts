import { apiJson } from './http';

/** Same-origin download of everything the account owns (session cookie). */
export const ACCOUNT_EXPORT_PATH = '/api/account/export';
/** Deletes the account and everything it owns; `email` confirms it. */
export const deleteAccount = (email: string) =>
  apiJson<{ success: true }>('/api/account/delete', { method: 'POST', body: { email } }, 'Failed to delete the account');

import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { notifyManager } from '@tanstack/react-query';
import { afterEach } from 'vitest';
import { initI18n } from '../i18n';

initI18n('en');
// The query cache tells components of a change at once (not on the next tick), as a click's own state update does.
notifyManager.setScheduler((notify) => notify());
afterEach(() => {
  if (typeof window === 'undefined') return;
  cleanup();
  window.localStorage.clear();
});

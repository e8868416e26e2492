import { render } from '@testing-library/react';
import i18n from 'i18next';
import { MemoryRouter } from 'react-router-dom';
import { afterEach } from 'vitest';
import { DocumentationPage } from './documentation-page';

/** Switches the app back to English after each test of the enclosing suite. */
export function englishAfterEach(): void {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });
}

/** Renders the documentation page in the current language; `inSpanish()` unmounts it and renders it again in Spanish. */
export function renderDocumentation(): { inSpanish: () => Promise<void> } {
  const { unmount } = render(
    <MemoryRouter>
      <DocumentationPage />
    </MemoryRouter>,
  );
  return {
    inSpanish: async () => {
      unmount();
      await i18n.changeLanguage('es');
      renderDocumentation();
    },
  };
}

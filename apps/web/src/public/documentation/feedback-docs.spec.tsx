import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import i18n from 'i18next';
import { DocumentationPage } from './documentation-page';

describe('documentation: corrections, glossary and applied_terms', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('lists the corrections and glossary routes and describes applied_terms, in English and Spanish', async () => {
    const { unmount } = render(
      <MemoryRouter>
        <DocumentationPage />
      </MemoryRouter>,
    );
    const routes = screen.getAllByTestId('documented-endpoint').map((e) => `${e.dataset['method']} ${e.dataset['path']}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /api/agents/{id}/corrections',
        'DELETE /api/agents/{id}/corrections/{correctionId}',
        'POST /api/agents/{id}/glossary',
        'POST /api/agents/{id}/glossary/import',
      ]),
    );
    expect(within(screen.getByTestId('docs-answer-fields')).getByText('applied_terms').closest('div')).toHaveTextContent('glossary terms found in the text');
    unmount();
    await i18n.changeLanguage('es');
    render(
      <MemoryRouter>
        <DocumentationPage />
      </MemoryRouter>,
    );
    expect(within(screen.getByTestId('docs-answer-fields')).getByText('applied_terms').closest('div')).toHaveTextContent('términos del glosario');
  });
});

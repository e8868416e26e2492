import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { englishAfterEach, renderDocumentation } from './render-documentation';

describe('documentation: corrections, glossary and applied_terms', () => {
  englishAfterEach();

  it('lists the corrections and glossary routes and describes applied_terms, in English and Spanish', async () => {
    const docs = renderDocumentation();
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
    await docs.inSpanish();
    expect(within(screen.getByTestId('docs-answer-fields')).getByText('applied_terms').closest('div')).toHaveTextContent('términos del glosario');
  });
});

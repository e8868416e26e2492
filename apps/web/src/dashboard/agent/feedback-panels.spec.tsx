import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { createQueryClient, QueryProvider } from '../../api/query-client';
import { SuggestCorrection } from '../../public/translator/suggest-correction';
import { IDLE, type TranslatorState } from '../../public/translator/use-translator';
import { useRouteServer, type RoutedRequest } from '../../test/api-server';
import { CorrectionsPanel } from './corrections-panel';
import { GlossaryPanel } from './glossary-panel';

const calls: RoutedRequest[] = [];
let corrections = [
  {
    id: 'c1',
    source: 'el perro',
    translation: 'allqu',
    corrected: 'hatun allqu',
    author_uid: 'u1',
    author_email: 'owner@example.org',
    created_at: '2026-11-24T05:00:00.000Z',
  },
];
let terms: Array<Record<string, unknown>> = [];

useRouteServer((req) => {
  calls.push(req);
  if (req.path === '/api/agents/a1/corrections' && req.method === 'GET') return [200, { corrections, next_cursor: null }];
  if (req.path === '/api/agents/a1/corrections' && req.method === 'POST')
    return [201, { id: 'c2', ...req.body, author_uid: 'u1', author_email: 'o@x', created_at: '2026-11-24T06:00:00.000Z' }];
  if (req.path === '/api/agents/a1/corrections/c1' && req.method === 'DELETE') {
    corrections = [];
    return [200, { success: true }];
  }
  if (req.path === '/api/agents/a1/glossary' && req.method === 'GET') return [200, { terms, next_cursor: null }];
  if (req.path === '/api/agents/a1/glossary' && req.method === 'POST') {
    const t = { id: 't1', note: '', case_sensitive: false, created_at: '', updated_at: '', ...req.body };
    terms = [t];
    return [201, t];
  }
  if (req.path === '/api/agents/a1/glossary/t1' && req.method === 'PUT') {
    terms = [{ ...terms[0], ...req.body }];
    return [200, terms[0]];
  }
  if (req.path === '/api/agents/a1/glossary/import') return [200, { added: 2, updated: 0, total: 3 }];
  return undefined;
});

const wrap = (node: React.ReactNode) => render(<QueryProvider client={createQueryClient({ retry: false })}>{node}</QueryProvider>);
const done: TranslatorState = { ...IDLE, phase: 'complete', source: 'el perro grande', output: 'hatun allqu' };

describe('owner feedback components', () => {
  afterEach(async () => {
    calls.length = 0;
    await i18n.changeLanguage('en');
  });

  it('Suggest a better translation posts source, the given translation and the correction', async () => {
    wrap(<SuggestCorrection agentId="a1" state={done} from="Spanish" to="Quechua" />);
    fireEvent.click(screen.getByRole('button', { name: 'Suggest a better translation' }));
    const box = screen.getByLabelText('Better translation');
    expect(box).toHaveValue('hatun allqu');
    fireEvent.change(box, { target: { value: 'hatun allqu kachkan' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save correction' }));
    expect(await screen.findByTestId('correction-saved')).toHaveTextContent('answers this text with your correction');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ source: 'el perro grande', translation: 'hatun allqu', corrected: 'hatun allqu kachkan' });
  });

  it('is hidden before a translation completes and explains the direction when swapped (Spanish)', async () => {
    await i18n.changeLanguage('es');
    const { container } = wrap(<SuggestCorrection agentId="a1" state={IDLE} from="Español" to="Quechua" />);
    expect(container).toBeEmptyDOMElement();
    wrap(<SuggestCorrection agentId="a1" state={done} reversed from="Español" to="Quechua" />);
    expect(screen.getByText('Las correcciones se hacen en la dirección del agente (Español → Quechua).')).toBeInTheDocument();
  });

  it('lists corrections with who, before and after, and undoes one', async () => {
    wrap(<CorrectionsPanel agentId="a1" />);
    const item = await screen.findByTestId('correction-item');
    expect(item).toHaveTextContent('el perro');
    expect(within(item).getByText('allqu').tagName).toBe('DEL');
    expect(item).toHaveTextContent('owner@example.org');
    fireEvent.click(within(item).getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText(/No corrections yet/)).toBeInTheDocument();
  });

  it('adds a glossary term, refuses an empty one, and imports a file by its extension', async () => {
    wrap(<GlossaryPanel agentId="a1" />);
    expect(await screen.findByText('No terms yet.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Add term' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Fill in the term and its translation.');
    fireEvent.change(screen.getByLabelText('Term'), { target: { value: 'agua' } });
    fireEvent.change(screen.getByLabelText('Required translation'), { target: { value: 'unu' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add term' }));
    expect(await screen.findByTestId('glossary-term')).toHaveTextContent('agua → unu');
    fireEvent.click(screen.getByRole('button', { name: 'Edit agua' }));
    expect(screen.getByLabelText('Required translation')).toHaveValue('unu');
    fireEvent.change(screen.getByLabelText('Required translation'), { target: { value: 'yaku' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save term' }));
    await waitFor(() => expect(screen.getByTestId('glossary-term')).toHaveTextContent('agua → yaku'));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ term: 'agua', translation: 'yaku', note: '', case_sensitive: false });
    const file = new File(['sol,inti\nluna,killa\n'], 'terms.csv', { type: 'text/csv' });
    fireEvent.change(screen.getByTestId('glossary-file'), { target: { files: [file] } });
    await waitFor(() => expect(screen.getByText('Imported: 2 added, 0 updated (3 terms).')).toBeInTheDocument());
    expect(calls.find((c) => c.path.endsWith('/import'))?.body).toEqual({ format: 'csv', glossary_file: 'sol,inti\nluna,killa\n' });
    const bad = new File(['x'], 'terms.xlsx');
    fireEvent.change(screen.getByTestId('glossary-file'), { target: { files: [bad] } });
    expect(await screen.findByText('terms.xlsx: choose a .csv, .tsv or .tbx file.')).toBeInTheDocument();
  });
});

import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { agentDto, user, useRouteServer } from '../../test/api-server';
import { renderAt } from '../../test/render';
import { FindPublicData } from './find-public-data';

/** The gateway's wire format for GET /api/corpora and POST /api/corpora/import. */
const imports: unknown[] = [];
const TINY = { name: 'Tiny', version: 'v1', pairs: 1200, size_bytes: 3 * 1024 * 1024, license: 'CC BY 4.0', format: 'moses' };

beforeEach(() => {
  imports.length = 0;
});
useRouteServer(({ method, path, query, body }) => {
  if (path === '/api/auth/session') return [200, { user: user() }];
  if (path === '/api/agents/mine')
    return [200, { owned: [agentDto({ id: 'mine', src_lang: 'es', tgt_lang: 'xx', custom_prompt: 'My agent' })], shared: [], next_cursor: null }];
  if (path === '/api/corpora') return [200, { corpora: query.get('tgt_lang') === 'xx' ? [TINY] : [] }];
  if (path === '/api/corpora/import' && method === 'POST') {
    imports.push(body);
    return [200, { task_id: 't1', model_id: 'new-agent', corpus: TINY }];
  }
  return undefined;
});

/** The signed-in user's agents come from GET /api/agents/mine, as in the dashboard. */
const renderIt = () => renderAt(<FindPublicData />);

describe('Builder: Find public data', () => {
  it('lists the corpora of a pair with size and license, and imports one into a chosen agent', async () => {
    renderIt();
    fireEvent.change(screen.getByLabelText('From (language code)'), { target: { value: 'es' } });
    fireEvent.change(screen.getByLabelText('To (language code)'), { target: { value: 'xx' } });
    fireEvent.click(screen.getByRole('button', { name: 'Find public data' }));
    expect(await screen.findByText('CC BY 4.0')).toBeInTheDocument();
    await screen.findByRole('option', { name: /My agent/ });
    expect(screen.getByText('3 MB')).toBeInTheDocument();
    expect(screen.getByText('1,200')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Import into'), { target: { value: 'mine' } });
    fireEvent.click(screen.getByRole('button', { name: 'Import Tiny moses' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Import of Tiny v1 started');
    expect(imports).toEqual([{ src_lang: 'es', tgt_lang: 'xx', corpus: 'Tiny', format: 'moses', model_id: 'mine' }]);
  });

  it('says when a pair has no public corpus', async () => {
    renderIt();
    fireEvent.change(screen.getByLabelText('From (language code)'), { target: { value: 'es' } });
    fireEvent.change(screen.getByLabelText('To (language code)'), { target: { value: 'zz' } });
    fireEvent.click(screen.getByRole('button', { name: 'Find public data' }));
    expect(await screen.findByText('No public corpus for this language pair.')).toBeInTheDocument();
  });
});

import { fireEvent, render, screen } from '@testing-library/react';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agent, routeFetch } from '../../test/api-server';
import { StaticDashboardData } from '../lib/dashboard-data';
import { FindPublicData } from './find-public-data';

/** The gateway's wire format for GET /api/corpora and POST /api/corpora/import. */
let server: Server;
let restore: () => void;
const imports: unknown[] = [];
const TINY = { name: 'Tiny', version: 'v1', pairs: 1200, size_bytes: 3 * 1024 * 1024, license: 'CC BY 4.0', format: 'moses' };

beforeEach(async () => {
  imports.length = 0;
  server = createServer(async (req, res) => {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/api/corpora') return json(200, { corpora: url.searchParams.get('tgt_lang') === 'xx' ? [TINY] : [] });
    if (url.pathname === '/api/corpora/import' && req.method === 'POST') {
      let raw = '';
      for await (const c of req) raw += c;
      imports.push(JSON.parse(raw));
      return json(200, { task_id: 't1', model_id: 'new-agent', corpus: TINY });
    }
    return json(404, { error: 'Not found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  restore = routeFetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterEach(async () => {
  restore();
  await new Promise((r) => server.close(r));
});

const renderIt = () =>
  render(
    <StaticDashboardData value={{ owned: [agent({ id: 'mine', src_lang: 'es', tgt_lang: 'xx', custom_prompt: 'My agent' })] }}>
      <FindPublicData />
    </StaticDashboardData>,
  );

describe('Builder: Find public data', () => {
  it('lists the corpora of a pair with size and license, and imports one into a chosen agent', async () => {
    renderIt();
    fireEvent.change(screen.getByLabelText('From (language code)'), { target: { value: 'es' } });
    fireEvent.change(screen.getByLabelText('To (language code)'), { target: { value: 'xx' } });
    fireEvent.click(screen.getByRole('button', { name: 'Find public data' }));
    expect(await screen.findByText('CC BY 4.0')).toBeInTheDocument();
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

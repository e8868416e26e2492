import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { File as NodeFile } from 'node:buffer';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TestProviders } from '../../test/render';
import { agentDto, routeFetch } from '../../test/api-server';
import { TranslateFileCard } from './translate-file-card';

/** A real HTTP server speaking the gateway's wire format for the three file-translation endpoints. */
function fileServer() {
  const state = { uploads: [] as string[], statusCalls: 0, progress: [40, 100], server: null as Server | null, origin: '' };
  const task = (progress: number) => ({
    id: 'task-1',
    status: progress < 100 ? 'PROCESSING' : 'COMPLETED',
    progress,
    message: progress < 100 ? 'Translating…' : 'Translated 2 segments.',
    format: 'csv',
    file_name: 'frases.csv',
    model_id: 'agent-1',
    total_segments: 2,
    translated_segments: progress < 100 ? 1 : 2,
    failed_segments: 0,
    created_at: '2025-08-21T10:00:00.000Z',
  });
  state.server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'POST' && url.pathname === '/api/translate/file') {
      // The multipart itself is checked end to end (tests/api/translate-file.e2e-spec.ts); here its kind and the CSRF echo.
      state.uploads.push(
        `${req.headers['content-type'] ?? ''} csrf=${req.headers['x-csrf-token'] ?? ''} idem=${req.headers['idempotency-key'] ? 'yes' : 'no'}`,
      );
      req.resume();
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ task_id: 'task-1', total_segments: 2 }));
    } else if (url.pathname === '/api/translate/file/status') {
      const p = state.progress[Math.min(state.statusCalls++, state.progress.length - 1)];
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ task: task(p) }));
    } else if (url.pathname === '/api/translate/file/download') {
      res.writeHead(200, { 'Content-Type': 'text/csv', 'Content-Disposition': `attachment; filename="frases.qu.csv"` }).end('es,qu\nhola,RIMAYKULLAYKI\n');
    } else res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'Not found.' }));
  });
  return state;
}

describe('TranslateFileCard', () => {
  let s: ReturnType<typeof fileServer>;
  let restore: () => void;
  beforeEach(async () => {
    s = fileServer();
    await new Promise<void>((r) => s.server!.listen(0, '127.0.0.1', r));
    s.origin = `http://127.0.0.1:${(s.server!.address() as AddressInfo).port}`;
    restore = routeFetch(s.origin);
    // jsdom's FormData/File cannot be sent by Node's fetch (which the routed fetch is): use Node's own, as a browser would send its own.
    vi.stubGlobal('FormData', (await import('undici')).FormData);
  });
  afterEach(async () => {
    restore();
    vi.unstubAllGlobals();
    s.server!.closeAllConnections();
    await new Promise<void>((r) => s.server!.close(() => r()));
  });

  it('uploads the file (multipart, CSRF, Idempotency-Key), polls the task to the end, then offers the download', async () => {
    render(
      <TestProviders>
        <TranslateFileCard agent={agentDto({ id: 'agent-1', src_lang: 'es', tgt_lang: 'qu' })} pollMs={1} />
      </TestProviders>,
    );
    expect(screen.getByRole('heading', { name: 'Translate a file' })).toBeInTheDocument();
    expect(screen.getByTestId('translate-file-start')).toBeDisabled();
    fireEvent.change(screen.getByTestId('translate-file-input'), { target: { files: [new NodeFile(['es\nhola\n'], 'frases.csv', { type: 'text/csv' })] } });
    fireEvent.change(screen.getByTestId('translate-file-column'), { target: { value: 'es' } });
    fireEvent.click(screen.getByTestId('translate-file-start'));
    await waitFor(() => expect(screen.getByTestId('translate-file-status')).toHaveTextContent('Done: 2 of 2 segments translated.'));
    expect(screen.getByRole('progressbar', { name: 'File translation progress' })).toHaveAttribute('aria-valuenow', '100');
    expect(s.statusCalls).toBe(2);
    expect(s.uploads).toEqual([expect.stringMatching(/^multipart\/form-data; boundary=.* csrf=.* idem=yes$/)]);
    expect(screen.getByTestId('translate-file-download')).toBeInTheDocument();
  });

  it('shows the server error of a refused upload', async () => {
    render(
      <TestProviders>
        <TranslateFileCard agent={agentDto({ id: 'missing', src_lang: 'es', tgt_lang: 'qu' })} pollMs={1} />
      </TestProviders>,
    );
    s.server!.removeAllListeners('request');
    s.server!.on('request', (_req, res) => res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'Model not found.' })));
    fireEvent.change(screen.getByTestId('translate-file-input'), { target: { files: [new NodeFile(['hola'], 'a.txt')] } });
    expect(screen.queryByTestId('translate-file-column')).toBeNull();
    fireEvent.click(screen.getByTestId('translate-file-start'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Model not found.');
  });
});

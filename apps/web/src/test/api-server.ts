import { afterEach, beforeEach } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentDto, UserDto } from '@gaia/contracts';

/**
 * A real HTTP server on 127.0.0.1:0 speaking the gateway's wire format (JSON, `{ error }`, SSE `data:` lines)
 * for the endpoints the public pages call. `routeFetch()` sends the app's same-origin fetches to it.
 */
export interface ApiServer {
  origin: string;
  agents: AgentDto[];
  /** The signed-in user GET /api/auth/session answers with; null → { user: null }. */
  me: UserDto | null;
  signOuts: number;
  /** Bodies received by POST /api/translate/. */
  translateCalls: { headers: IncomingMessage['headers']; body: Record<string, unknown> }[];
  /** Lines the next translate answers with; each is written as its own chunk. */
  translateLines: string[];
  /** When set, translate waits for `release()` before the last line. */
  holdBeforeLast: boolean;
  release(): void;
  close(): Promise<void>;
}

export function agent(overrides: Partial<AgentDto> = {}): AgentDto {
  return {
    id: 'agent-1',
    src_lang: 'quechua',
    tgt_lang: 'spanish',
    custom_prompt: 'Cusco Quechua stories',
    core_memory: '',
    learned_memory: '',
    public: true,
    created_at: '2025-08-01T00:00:00.000Z',
    uid: 'owner-1',
    sharedWithEmails: [],
    document_source: null,
    processing_task_id: null,
    processing_status: 'COMPLETED',
    processing_error: null,
    document_count: 1,
    text_blocks_extracted: 12,
    pair_count: 12,
    engine: 'builtin',
    ...overrides,
  };
}

export function user(overrides: Partial<UserDto> = {}): UserDto {
  return {
    uid: 'u-1',
    email: 'ana@example.org',
    fullName: 'Ana Quispe',
    displayName: 'Ana',
    accountType: 'Standard',
    creationTime: '2025-01-01T00:00:00.000Z',
    lastSignInTime: null,
    plan: 'Free',
    emailVerified: true,
    ...overrides,
  };
}

export const PUBLIC_KEY = 'pk_test_public';

export async function startApiServer(agents: AgentDto[] = [agent()]): Promise<ApiServer> {
  let releaseFn: (() => void) | null = null;
  const state: ApiServer = {
    origin: '',
    agents,
    me: null,
    signOuts: 0,
    translateCalls: [],
    translateLines: [
      'data: {"type":"status","message":"Retrieving examples..."}',
      'data: {"type":"translation_chunk","content":"Hola"}',
      'data: {"type":"translation_chunk","content":" mundo"}',
      'data: {"type":"translation_complete","final_translation":"Hola mundo","response_time":1.5,"source_text":"Allinllachu","source_language":"quechua","target_language":"spanish","confidence":0.8,"untranslated":[],"engine":"builtin"}',
    ],
    holdBeforeLast: false,
    release: () => releaseFn?.(),
    close: () => new Promise((r) => server.close(() => r())),
  };
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    if (path === '/api/public/config') return json(res, 200, { publicApiKey: PUBLIC_KEY, oidcEnabled: false, oidcProviderName: null });
    if (path === '/api/auth/session') return json(res, 200, { user: state.me });
    if (path === '/api/auth/signout' && req.method === 'POST') {
      state.signOuts++;
      state.me = null;
      res.writeHead(204);
      return res.end();
    }
    if (path === '/api/agents/public') return json(res, 200, { agents: state.agents });
    if (path.startsWith('/api/agents/')) {
      const found = state.agents.find((a) => a.id === decodeURIComponent(path.slice('/api/agents/'.length)));
      return found ? json(res, 200, found) : json(res, 404, { error: 'Model not found.' });
    }
    if (path === '/api/translate/' && req.method === 'POST') {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      state.translateCalls.push({ headers: req.headers, body: JSON.parse(raw) });
      if (req.headers['x-api-key'] !== PUBLIC_KEY) return json(res, 401, { error: 'Invalid API key.' });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const lines = [...state.translateLines];
      const last = lines.pop();
      for (const line of lines) res.write(`${line}\n\n`);
      if (state.holdBeforeLast) await new Promise<void>((r) => (releaseFn = r));
      res.end(last ? `${last}\n\n` : '');
      return;
    }
    json(res, 404, { error: 'Not found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** Sends relative fetches (`/api/...`) to the server; returns the restore function. */
export function routeFetch(origin: string): () => void {
  const real = globalThis.fetch;
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' && input.startsWith('/') ? `${origin}${input}` : input;
    return real(url, init);
  }) as typeof fetch;
  return () => {
    globalThis.fetch = real;
  };
}

/** One request as a route of `useRouteServer` sees it (JSON body parsed, `{}` when empty). */
export interface RoutedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown>;
}
/** The answer of a route: status and JSON body; undefined → 404 `{ error: 'Not found' }`. */
export type RouteAnswer = readonly [status: number, body: unknown] | undefined;

/**
 * A real HTTP server per test of a spec file (started in beforeEach, closed in afterEach) answering the gateway's
 * JSON wire format from `route`, with the app's relative fetches sent to it.
 */
export function useRouteServer(route: (req: RoutedRequest) => RouteAnswer): void {
  let server: Server;
  let restore: () => void;
  beforeEach(async () => {
    server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
      let raw = '';
      for await (const c of req) raw += c;
      const url = new URL(req.url ?? '/', 'http://localhost');
      const [status, body] = route({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, body: raw ? JSON.parse(raw) : {} }) ?? [
        404,
        { error: 'Not found' },
      ];
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    restore = routeFetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  afterEach(async () => {
    restore();
    await new Promise((r) => server.close(r));
  });
}

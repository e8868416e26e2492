import { afterEach, beforeEach } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { configure } from '@testing-library/dom';
import { io } from 'socket.io-client';
import type { AgentDto, ApiKeyDto, KeyUsageDto, IngestionTaskDto, TeamMemberDto, UsageSummaryDto, UserDto } from '@gaia/contracts';
import { setSocketFactory, type GaiaSocket } from '../dashboard/lib/realtime';

// The first render of a test file compiles lazily and can take seconds on a shared machine.
configure({ asyncUtilTimeout: 5000 });

/**
 * The app's stand-in for the gateway: a real HTTP server on 127.0.0.1:0 speaking its wire format (docs/api-surface.md:
 * JSON, `{ error }`, SSE `data:` lines) for the calls of the public pages and of the signed-in area. Tests set its
 * state and read the requests it received. It has no Socket.IO endpoint, so the app's realtime connection fails and
 * the components fall back to polling, as they do in production.
 */
export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface ApiServer {
  origin: string;
  /** Name of the identity provider the public config announces (null: popup sign-in off). */
  oidcProvider: string | null;
  /** The signed-in user GET /api/auth/session answers with (null: signed out). */
  user: UserDto | null;
  /** When set, the session ends after this many GET /api/auth/session answers (then signed out everywhere). */
  sessionMeCalls: number | null;
  signOuts: number;
  /** GET /api/agents/public; anyone may read these by id. */
  publicAgents: AgentDto[];
  owned: AgentDto[];
  shared: AgentDto[];
  members: TeamMemberDto[];
  keys: ApiKeyDto[];
  usage: KeyUsageDto;
  summary: UsageSummaryDto;
  tasks: Map<string, IngestionTaskDto>;
  /** Forced answers by 'METHOD /path': status, body and optionally the X-Error-Code the gateway sends. */
  fail: Map<string, [number, unknown, string?]>;
  received: Received[];
  /** Holds the answer to 'METHOD /path' (the request is recorded meanwhile) until the returned function is called. */
  hold(route: string): () => void;
  /** POST /api/translate/ calls (with the public key, or signed in without one). */
  translateCalls: { headers: IncomingMessage['headers']; body: Record<string, unknown> }[];
  /** Lines the next translate answers with; each is written as its own chunk. */
  translateLines: string[];
  /** When set, translate waits for `release()` before the last line. */
  holdBeforeLast: boolean;
  release(): void;
  close(): Promise<void>;
}

/** The public translator's API key (GET /api/public/config); translate refuses any other key. */
export const PUBLIC_KEY = 'pk_test_public';

export function user(overrides: Partial<UserDto> = {}): UserDto {
  return {
    uid: 'owner-1',
    email: 'ana@example.org',
    fullName: 'Ana Quispe',
    displayName: 'Ana',
    accountType: 'Standard',
    creationTime: '2025-08-01T10:00:00.000Z',
    lastSignInTime: '2025-08-20T09:30:00.000Z',
    plan: 'Free',
    emailVerified: true,
    ...overrides,
  };
}

export function agentDto(overrides: Partial<AgentDto> = {}): AgentDto {
  return {
    id: 'agent-1',
    src_lang: 'quechua',
    tgt_lang: 'spanish',
    custom_prompt: 'Cusco Quechua stories',
    core_memory: '',
    learned_memory: '',
    public: false,
    created_at: '2025-08-01T00:00:00.000Z',
    uid: 'owner-1',
    sharedWithEmails: [],
    document_source: 'upload',
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

export function taskDto(overrides: Partial<IngestionTaskDto> = {}): IngestionTaskDto {
  return {
    id: 'task-1',
    status: 'PROCESSING',
    progress: 10,
    message: 'Reading files',
    estimated_processing_time: 120,
    total_pages: 0,
    total_files: 1,
    successful_files: 0,
    text_blocks_extracted: 0,
    created_at: new Date().toISOString(),
    model_id: 'agent-1',
    errors: [],
    ...overrides,
  };
}

/** A key's usage as GET /api/api-keys/usage answers it (nothing used, the default 1,000 a day), with overrides. */
export function keyUsageOf(over: Partial<KeyUsageDto> = {}): KeyUsageDto {
  return {
    total_requests: 0,
    rate_limit: 1000,
    requests_today: 0,
    input_cost: 0,
    output_cost: 0,
    total_cost: 0,
    average_tokens_per_request: 0,
    requests: [],
    ...over,
  };
}

/** A usage summary as GET /api/usage/summary answers it (Free plan, nothing used), with overrides of the top level and the period. */
export function usageSummaryOf(over: Partial<Omit<UsageSummaryDto, 'period'>> = {}, period: Partial<UsageSummaryDto['period']> = {}): UsageSummaryDto {
  return {
    total_requests: 0,
    total_words: 0,
    total_cost: 0,
    plan: 'Free',
    series: [],
    ...over,
    period: {
      start: '2025-08-01T00:00:00.000Z',
      end: '2025-09-01T00:00:00.000Z',
      words: 0,
      included_words: null,
      overage_words: 0,
      overage_cost: 0,
      plan_price: 0,
      amount_due: 0,
      api_calls_today: 0,
      daily_api_calls: 10,
      ...period,
    },
  };
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  if (!raw) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** Starts the stand-in: signed out with one public agent, or `signedIn` as `user()` with nothing of their own yet. */
export async function startApiServer({
  signedIn = false,
  publicAgents = [agentDto({ public: true })],
}: { signedIn?: boolean; publicAgents?: AgentDto[] } = {}): Promise<ApiServer> {
  const held = new Map<string, Promise<void>>();
  /** Releases of the answers still held (closing the server answers them, so a failed test does not hang its close). */
  const releases = new Set<() => void>();
  let releaseLast: (() => void) | null = null;
  const state: ApiServer = {
    origin: '',
    oidcProvider: null,
    user: signedIn ? user() : null,
    sessionMeCalls: null,
    signOuts: 0,
    publicAgents,
    owned: [],
    shared: [],
    members: [],
    keys: [],
    usage: keyUsageOf(),
    summary: usageSummaryOf(),
    tasks: new Map(),
    fail: new Map(),
    received: [],
    hold: (route) => {
      let answer = () => {};
      held.set(route, new Promise<void>((r) => (answer = r)));
      const release = () => {
        held.delete(route);
        releases.delete(release);
        answer();
      };
      releases.add(release);
      return release;
    },
    translateCalls: [],
    translateLines: [
      'data: {"type":"status","message":"Retrieving examples..."}',
      'data: {"type":"translation_chunk","content":"Hola"}',
      'data: {"type":"translation_chunk","content":" mundo"}',
      'data: {"type":"translation_complete","final_translation":"Hola mundo","response_time":1.5,"source_text":"Allinllachu","source_language":"quechua","target_language":"spanish","confidence":0.8,"untranslated":[],"engine":"builtin"}',
    ],
    holdBeforeLast: false,
    release: () => releaseLast?.(),
    close: () => {
      for (const release of [...releases]) release();
      releaseLast?.(); // a translation held before its last line (holdBeforeLast) ends too
      return new Promise((r) => server.close(() => r()));
    },
  };
  const json = (res: ServerResponse, status: number, body: unknown) => {
    if (status === 204) {
      res.writeHead(204);
      res.end();
      return;
    }
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const body = method === 'GET' ? null : await readBody(req);
    state.received.push({ method, path, headers: req.headers, body });
    await held.get(`${method} ${path}`);
    const forced = state.fail.get(`${method} ${path}`);
    if (forced) {
      if (forced[2]) res.setHeader('X-Error-Code', forced[2]);
      return json(res, forced[0], forced[1]);
    }
    if (path === '/api/public/config')
      return json(res, 200, { publicApiKey: PUBLIC_KEY, oidcEnabled: !!state.oidcProvider, oidcProviderName: state.oidcProvider });
    if (path === '/api/auth/signin' && method === 'POST')
      return state.user ? json(res, 200, { user: state.user }) : json(res, 401, { error: 'Invalid email or password.' });
    if (path === '/api/auth/session' && state.sessionMeCalls !== null && state.sessionMeCalls-- <= 0) state.user = null;
    if (path === '/api/auth/session') return json(res, 200, { user: state.user });
    if (path === '/api/auth/signout' && method === 'POST') {
      state.signOuts++;
      state.user = null;
      return json(res, 204, null);
    }
    if (path === '/api/agents/public') return json(res, 200, { agents: state.publicAgents });
    if (path === '/api/translate/' && method === 'POST') {
      // The gateway's stream (spec §7): one `data:` line per event, for the public key or a session without a key.
      state.translateCalls.push({ headers: req.headers, body: body as Record<string, unknown> });
      const key = req.headers['x-api-key'];
      if (key ? key !== PUBLIC_KEY : !state.user) return json(res, 401, { error: key ? 'Invalid API key.' : 'Not signed in.' });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const lines = [...state.translateLines];
      const last = lines.pop();
      for (const line of lines) res.write(`${line}\n\n`);
      if (state.holdBeforeLast) await new Promise<void>((r) => (releaseLast = r));
      res.end(last ? `${last}\n\n` : '');
      return;
    }
    const one = /^\/api\/agents\/([^/]+)$/.exec(path);
    const oneId = one && one[1] !== 'mine' ? decodeURIComponent(one[1]) : null;
    if (oneId && method === 'GET' && !state.user) {
      const a = state.publicAgents.find((x) => x.id === oneId);
      return a ? json(res, 200, a) : json(res, 404, { error: 'Model not found.' });
    }
    if (!state.user) return json(res, 401, { error: 'Not signed in.' });
    if (path === '/api/account' && method === 'GET') return json(res, 200, state.user);
    if (path === '/api/account' && method === 'PATCH') {
      state.user = { ...state.user, ...(body as Partial<UserDto>) };
      return json(res, 200, state.user);
    }
    if (path === '/api/agents/mine') return json(res, 200, { owned: state.owned, shared: state.shared, next_cursor: null });
    if (path === '/api/usage/summary') return json(res, 200, state.summary);
    if (path === '/api/documents/status') {
      const task = state.tasks.get(url.searchParams.get('task_id') ?? '');
      return task ? json(res, 200, { task }) : json(res, 404, { error: 'Task not found.' });
    }
    const visibility = /^\/api\/agents\/([^/]+)\/visibility$/.exec(path);
    if (visibility && method === 'POST') {
      const a = state.owned.find((x) => x.id === decodeURIComponent(visibility[1]));
      if (!a) return json(res, 403, { error: 'Only the owner can change visibility.' });
      a.public = (body as { public: boolean }).public;
      return json(res, 200, a);
    }
    // The agent page's feedback panels: no corrections and no glossary terms yet.
    const feedback = /^\/api\/agents\/[^/]+\/(corrections|glossary)$/.exec(path);
    if (feedback && method === 'GET')
      return json(res, 200, feedback[1] === 'corrections' ? { corrections: [], next_cursor: null } : { terms: [], next_cursor: null });
    if (oneId) {
      const a = [...state.owned, ...state.shared, ...state.publicAgents].find((x) => x.id === oneId);
      if (!a) return json(res, 404, { error: 'Model not found.' });
      if (method === 'PATCH') Object.assign(a, body);
      return json(res, 200, a);
    }
    if (path === '/api/delete-model/' && method === 'POST') {
      const id = (body as { model_id: string }).model_id;
      const before = state.owned.length;
      state.owned = state.owned.filter((a) => a.id !== id);
      return before === state.owned.length ? json(res, 403, { error: 'Only the owner can delete this agent.' }) : json(res, 200, { success: true });
    }
    if (path === '/api/team' && method === 'GET') return json(res, 200, { members: state.members });
    if (path === '/api/team/members' && method === 'POST') {
      const { name, email } = body as { name: string; email: string };
      const m: TeamMemberDto = {
        id: `m${state.members.length + 1}`,
        name,
        email: email.toLowerCase(),
        role: 'Editor',
        status: 'invited',
        addedAt: '2025-08-21T00:00:00.000Z',
      };
      state.members.push(m);
      return json(res, 201, m);
    }
    const member = /^\/api\/team\/members\/([^/]+)$/.exec(path);
    if (member && method === 'DELETE') {
      state.members = state.members.filter((m) => m.id !== decodeURIComponent(member[1]));
      return json(res, 204, null);
    }
    if (path === '/api/api-keys/list/') return json(res, 200, { success: true, api_keys: state.keys });
    if (path === '/api/api-keys/create/' && method === 'POST') {
      const name = (body as { name: string }).name;
      const key: ApiKeyDto = { key_id: `k${state.keys.length + 1}`, name, prefix: 'gaia_sk_ab', created_at: '2025-08-21T00:00:00.000Z', revoked: false };
      state.keys.push(key);
      return json(res, 200, { success: true, api_key: `gaia_sk_abSECRET${state.keys.length}`, key });
    }
    if (path === '/api/api-keys/revoke/' && method === 'POST') {
      const k = state.keys.find((x) => x.key_id === (body as { key_id: string }).key_id);
      if (k) k.revoked = true;
      return json(res, 200, { success: true });
    }
    if (path === '/api/api-keys/usage/') return json(res, 200, { success: true, usage: state.usage });
    json(res, 404, { error: 'Not found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** Sends relative fetches (`/api/...`) to the server, and the realtime connection to it (which has none); returns the restore function. */
export function routeFetch(origin: string): () => void {
  const real = globalThis.fetch;
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' && input.startsWith('/') ? `${origin}${input}` : input;
    return real(url, init);
  }) as typeof fetch;
  setSocketFactory(() => io(origin, { autoConnect: false, reconnection: false, transports: ['polling'] }) as GaiaSocket);
  return () => {
    globalThis.fetch = real;
  };
}

/**
 * One fresh stand-in per test (options as `startApiServer`), with `fetch` routed to it: registers the hooks and
 * returns a handle that always points at the current test's server.
 */
export function useApiServer(options: Parameters<typeof startApiServer>[0] = {}): ApiServer {
  let current: ApiServer | undefined;
  let restore: (() => void) | undefined;
  beforeEach(async () => {
    current = await startApiServer(options);
    restore = routeFetch(current.origin);
  });
  afterEach(async () => {
    restore?.();
    await current?.close();
  });
  return new Proxy({} as ApiServer, {
    get: (_, key) => {
      if (!current) throw new Error('the API server only exists inside a test');
      return Reflect.get(current, key);
    },
    set: (_, key, value) => {
      if (!current) throw new Error('the API server only exists inside a test');
      return Reflect.set(current, key, value);
    },
  });
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

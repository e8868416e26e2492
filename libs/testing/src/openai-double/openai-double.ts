/**
 * A local HTTP double of an OpenAI-compatible endpoint that speaks the real wire protocol
 * (`POST /v1/chat/completions`, `POST /v1/embeddings`), for tests of code that talks to an LLM.
 *
 * - Streaming answers (`stream: true`) are `text/event-stream` lines `data: {chat.completion.chunk}`
 *   followed by `data: [DONE]`; when the request asks `stream_options.include_usage`, the last chunk
 *   carries `usage` and an empty `choices` array, as the real API does.
 * - Non-stream answers are one `chat.completion` JSON object with `n` choices and `usage`.
 * - Scripted failures: any HTTP status with an OpenAI error body (e.g. 429 with `Retry-After`, 500),
 *   slow streams (a pause before every chunk), streams that stall forever after some chunks and
 *   streams cut off mid-way (socket destroyed, no `[DONE]`).
 * - Every request (method, path, headers, parsed JSON body) is recorded for assertions.
 *
 * Replies are taken from a FIFO queue (`enqueue`); when it is empty, `fallback` answers.
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

export interface DoubleUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

export type DoubleReply =
  | {
      kind: 'stream';
      /** Content deltas, one chunk each. */
      tokens: string[];
      /** Usage of the last chunk (default: computed from the request and the tokens). */
      usage?: DoubleUsage | null;
      /** Pause before each chunk, in ms (a slow stream). */
      delayMs?: number;
      /** Destroy the socket after this many content chunks (a cut-off stream, no finish, no [DONE]). */
      cutAfter?: number;
      /** Stop sending after this many content chunks and keep the connection open (a stalled stream). */
      stallAfter?: number;
      finishReason?: string;
    }
  | {
      kind: 'json';
      /** One message content per choice; when shorter than the request's `n`, it is cycled. */
      choices: string[];
      usage?: DoubleUsage;
      /** Pause before answering, in ms. */
      delayMs?: number;
      /** Keep the connection open without answering (until the client gives up). */
      hang?: boolean;
    }
  | {
      kind: 'error';
      status: number;
      message?: string;
      /** `Retry-After` header value (seconds or HTTP date). */
      retryAfter?: string;
      /** `retry-after-ms` header value. */
      retryAfterMs?: string;
      type?: string;
    }
  | { kind: 'embeddings'; vectors?: number[][]; usage?: { prompt_tokens: number; total_tokens: number } };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (undefined when the body was not JSON). */
  body: any;
  /** When the reply of this request was fully written or the connection was closed. */
  closed: Promise<void>;
}

export type DoubleResponder = (body: any, request: RecordedRequest) => DoubleReply;

/** Rough token count used for default usage figures: whitespace-separated words of all message texts. */
export function countDoubleTokens(body: any): number {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  let n = 0;
  for (const m of messages) {
    const parts = typeof m.content === 'string' ? [m.content] : Array.isArray(m.content) ? m.content : [];
    for (const p of parts) {
      const text = typeof p === 'string' ? p : p?.type === 'text' ? String(p.text ?? '') : '';
      n += text.split(/\s+/).filter(Boolean).length;
    }
  }
  return n;
}

/** Default answer: candidates `draft 1..n` for non-stream calls, `final translation` token by token for streams. */
export const defaultResponder: DoubleResponder = (body) => {
  if (body?.stream) return { kind: 'stream', tokens: ['final', ' ', 'translation'] };
  return { kind: 'json', choices: Array.from({ length: Number(body?.n ?? 1) }, (_, i) => `draft ${i + 1}`) };
};

export class OpenAiDouble {
  readonly requests: RecordedRequest[] = [];
  fallback: DoubleResponder = defaultResponder;
  private readonly queue: Array<DoubleReply | DoubleResponder> = [];
  private readonly sockets = new Set<Socket>();
  private idSeq = 0;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  /** Starts the double on 127.0.0.1, port 0. */
  static async start(): Promise<OpenAiDouble> {
    const holder: { double?: OpenAiDouble } = {};
    const server = createServer((req, res) => {
      void holder.double!.handle(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const double = new OpenAiDouble(server, (server.address() as AddressInfo).port);
    holder.double = double;
    server.on('connection', (socket) => {
      double.sockets.add(socket);
      socket.on('close', () => double.sockets.delete(socket));
    });
    return double;
  }

  /** Base URL to give the client (`OPENAI_BASE_URL`). */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  /** Scripts the next replies, in order. */
  enqueue(...replies: Array<DoubleReply | DoubleResponder>): this {
    this.queue.push(...replies);
    return this;
  }

  /** Requests to `/v1/chat/completions`. */
  get chatRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.path.endsWith('/chat/completions'));
  }

  reset(): void {
    this.requests.length = 0;
    this.queue.length = 0;
    this.fallback = defaultResponder;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: any;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    let markClosed!: () => void;
    const closed = new Promise<void>((resolve) => (markClosed = resolve));
    res.on('close', () => markClosed());
    const recorded: RecordedRequest = { method: req.method ?? '', path: (req.url ?? '').split('?')[0], headers: req.headers, body, closed };
    this.requests.push(recorded);

    if (req.method !== 'POST' || !/\/(chat\/completions|embeddings)$/.test(recorded.path)) {
      return this.sendError(res, { kind: 'error', status: 404, message: `Unknown path ${recorded.path}`, type: 'invalid_request_error' });
    }
    if (body === undefined) {
      return this.sendError(res, { kind: 'error', status: 400, message: 'Body must be JSON', type: 'invalid_request_error' });
    }
    const next = this.queue.shift() ?? this.fallback;
    const reply = typeof next === 'function' ? next(body, recorded) : next;
    switch (reply.kind) {
      case 'error':
        return this.sendError(res, reply);
      case 'json':
        return this.sendJson(res, body, reply);
      case 'stream':
        return this.sendStream(res, body, reply);
      case 'embeddings':
        return this.sendEmbeddings(res, body, reply);
    }
  }

  private sendError(res: ServerResponse, reply: Extract<DoubleReply, { kind: 'error' }>): void {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (reply.retryAfter !== undefined) headers['retry-after'] = reply.retryAfter;
    if (reply.retryAfterMs !== undefined) headers['retry-after-ms'] = reply.retryAfterMs;
    res.writeHead(reply.status, headers);
    res.end(
      JSON.stringify({
        error: {
          message: reply.message ?? (reply.status === 429 ? 'Rate limit reached' : 'The server had an error'),
          type: reply.type ?? (reply.status === 429 ? 'rate_limit_exceeded' : 'server_error'),
          param: null,
          code: null,
        },
      }),
    );
  }

  private async sendJson(res: ServerResponse, body: any, reply: Extract<DoubleReply, { kind: 'json' }>): Promise<void> {
    if (reply.hang) return; // never answers; the client's timeout closes the socket
    if (reply.delayMs) await pause(reply.delayMs);
    const n = Math.max(1, Number(body.n ?? 1));
    const contents = Array.from({ length: n }, (_, i) => reply.choices[i % Math.max(1, reply.choices.length)] ?? '');
    const completionTokens = contents.reduce((s, c) => s + c.split(/\s+/).filter(Boolean).length, 0);
    const usage = reply.usage ?? { prompt_tokens: countDoubleTokens(body), completion_tokens: completionTokens };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: `chatcmpl-${++this.idSeq}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: contents.map((content, index) => ({
          index,
          message: { role: 'assistant', content, refusal: null },
          logprobs: null,
          finish_reason: 'stop',
        })),
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      }),
    );
  }

  private async sendStream(res: ServerResponse, body: any, reply: Extract<DoubleReply, { kind: 'stream' }>): Promise<void> {
    const id = `chatcmpl-${++this.idSeq}`;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (choices: unknown[], usage?: unknown) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices, ...(usage !== undefined ? { usage } : {}) })}\n\n`;
    const includeUsage = body.stream_options?.include_usage === true;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.write(chunk([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }], includeUsage ? null : undefined));
    // Cut-off: flush what was written, then drop the connection without the final chunk or [DONE].
    const cut = async () => {
      await new Promise<void>((resolve) => res.write('', () => resolve()));
      res.socket?.destroy();
    };
    let sent = 0;
    for (const token of reply.tokens) {
      if (reply.cutAfter !== undefined && sent >= reply.cutAfter) return cut();
      if (reply.stallAfter !== undefined && sent >= reply.stallAfter) return; // keeps the connection open
      if (reply.delayMs) await pause(reply.delayMs);
      if (res.destroyed) return;
      res.write(chunk([{ index: 0, delta: { content: token }, logprobs: null, finish_reason: null }], includeUsage ? null : undefined));
      sent++;
    }
    if (reply.cutAfter !== undefined && sent >= reply.cutAfter) return cut();
    if (reply.stallAfter !== undefined) return;
    res.write(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: reply.finishReason ?? 'stop' }], includeUsage ? null : undefined));
    if (includeUsage && reply.usage !== null) {
      const usage = reply.usage ?? { prompt_tokens: countDoubleTokens(body), completion_tokens: reply.tokens.length };
      res.write(chunk([], { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens }));
    }
    res.end('data: [DONE]\n\n');
  }

  private sendEmbeddings(res: ServerResponse, body: any, reply: Extract<DoubleReply, { kind: 'embeddings' }>): void {
    const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
    const vectors = reply.vectors ?? inputs.map((t) => [String(t).length, 1, 0]);
    const tokens = inputs.reduce((s, t) => s + String(t).split(/\s+/).filter(Boolean).length, 0);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        object: 'list',
        model: body.model,
        data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
        usage: reply.usage ?? { prompt_tokens: tokens, total_tokens: tokens },
      }),
    );
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

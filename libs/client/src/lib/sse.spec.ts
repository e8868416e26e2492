import { parseSse } from './sse';
import { parseRetryAfter, errorFor, GaiaRateLimitError, GaiaNotFoundError } from './errors';

const streamOf = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const x of chunks) c.enqueue(new TextEncoder().encode(x));
      c.close();
    },
  });

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('parseSse', () => {
  it('yields the JSON of each data: event, across chunk boundaries and CRLF', async () => {
    const events = await all(
      parseSse(streamOf('data: {"type":"status","mes', 'sage":"x"}\n\nda', 'ta: {"type":"translation_chunk","content":"a"}\r\n\r\n', 'data: {"type":"end"}')),
    );
    expect(events).toEqual([{ type: 'status', message: 'x' }, { type: 'translation_chunk', content: 'a' }, { type: 'end' }]);
  });

  it('skips a line that is not JSON and goes on', async () => {
    const bad: string[] = [];
    expect(await all(parseSse(streamOf('data: {oops\n\ndata: {"ok":true}\n\n'), (l) => bad.push(l)))).toEqual([{ ok: true }]);
    expect(bad).toEqual(['{oops']);
  });
});

describe('errors', () => {
  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('120')).toBe(120);
    expect(parseRetryAfter(new Date(Date.UTC(2030, 0, 1, 0, 1)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(60);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });

  it('maps a status to its typed error with the server message', () => {
    const e = errorFor(429, 'Daily limit reached', { error: 'Daily limit reached' }, '30');
    expect(e).toBeInstanceOf(GaiaRateLimitError);
    expect(e).toMatchObject({ message: 'Daily limit reached', status: 429, retryAfterSeconds: 30 });
    expect(errorFor(404, 'Model not found.', null, null)).toBeInstanceOf(GaiaNotFoundError);
  });
});

import type request from 'supertest';

/** supertest parser that keeps a text/event-stream body as one string. */
export function rawText(res: request.Response, cb: (err: Error | null, body: string) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  let data = '';
  stream.setEncoding('utf8');
  stream.on('data', (c: string | Buffer) => (data += c));
  stream.on('end', () => cb(null, data));
}

/** The JSON objects of the `data: ` lines. */
export function sseEvents(body: string): Array<Record<string, unknown>> {
  return body
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
}

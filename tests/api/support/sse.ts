import type request from 'supertest';

/** supertest parser that keeps a text/event-stream body as one string. */
export function rawText(res: request.Response & NodeJS.ReadableStream, cb: (err: Error | null, body: string) => void): void {
  let data = '';
  res.setEncoding('utf8');
  res.on('data', (c: string) => (data += c));
  res.on('end', () => cb(null, data));
}

/** The JSON objects of the `data: ` lines. */
export function sseEvents(body: string): Array<Record<string, unknown>> {
  return body
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
}

import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { IngestionModule, ingestionSchema } from '@gaia/ingestion/feature';
import { DEFAULT_GATEWAY_OPTIONS, maxUploadRequestBytes, UPLOAD_RETRY_AFTER_SECONDS, UploadBudget } from '@gaia/gateway/feature';
import { waitFor, type TestApp } from '@gaia/testing';
import { signUp, startApi, type User } from './support/api-app';
import { uploadDocuments } from './support/documents';

/** UPLOAD_MEMORY_BUDGET_MB of the app under test: two held uploads fit, a third (from anyone) does not. */
const BUDGET_MB = 1;
const UPLOAD_BYTES = 400 * 1024;
/** What a held upload sends before it stops mid-body: its fields and the start of its file. */
const HEAD_BYTES = 16 * 1024;
const BOUNDARY = 'gaia-upload-budget-boundary';
const fields = { src_lang: 'es', tgt_lang: 'qu', custom_prompt: 'Español - Quechua' };

/** A JSON file of a few pairs, padded with trailing whitespace (still valid JSON) so the whole request is `total` bytes. */
function paddedPairs(total: number): Buffer {
  const json = JSON.stringify(Array.from({ length: 5 }, (_, i) => ({ es: `frase ${i}`, qu: `rimay ${i}` })));
  return Buffer.from(json + ' '.repeat(Math.max(0, total - json.length)));
}

/** The multipart body of a document upload (the fields, then one `files` part), exactly `total` bytes long. */
function multipartBody(total: number): Buffer {
  const head = Buffer.from(
    Object.entries(fields)
      .map(([k, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') + `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="pares.json"\r\nContent-Type: application/json\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  return Buffer.concat([head, paddedPairs(total - head.length - tail.length), tail]);
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: { error?: string; task_id?: string };
}

/**
 * A document upload over a raw connection that sends its headers and the first `HEAD_BYTES` of its body, then waits:
 * `finish()` sends the rest, `abort()` drops the connection. `contentLength: null` sends it chunked (no Content-Length).
 */
function heldUpload(url: string, user: User, o: { contentLength?: number | null } = {}) {
  const body = multipartBody(UPLOAD_BYTES);
  const headers: Record<string, string | number> = {
    Cookie: user.cookie,
    'X-CSRF-Token': user.csrf,
    'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
  };
  if (o.contentLength !== null) headers['Content-Length'] = o.contentLength ?? body.length;
  const req: ClientRequest = httpRequest(`${url}/api/documents/process/`, { method: 'POST', headers });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') }));
      res.on('error', reject);
    });
  });
  // An aborted upload rejects its answer: nobody waits for it.
  answer.catch(() => undefined);
  req.write(body.subarray(0, HEAD_BYTES));
  return {
    answer,
    finish: () => {
      req.end(body.subarray(HEAD_BYTES));
      return answer;
    },
    abort: () => req.destroy(),
  };
}

/**
 * The memory held by uploads in flight is bounded per process (multer parses in memory): each upload reserves its declared
 * size before its body is read; past UPLOAD_MEMORY_BUDGET_MB the next is refused 503 with Retry-After, one account holds
 * at most 2 uploads in flight (429), a declared size above the largest possible request is refused 413 at once, and every
 * reservation is given back when its response closes (finished or aborted).
 */
describe('uploads: memory budget of the uploads in flight', () => {
  let t: TestApp & { url: string };
  let budget: UploadBudget;
  let ana: User;
  let ben: User;
  const held: Array<ReturnType<typeof heldUpload>> = [];
  const hold = (user: User, o?: { contentLength?: number | null }) => {
    const h = heldUpload(t.url, user, o);
    held.push(h);
    return h;
  };
  const uploadsInFlight = (n: number) =>
    waitFor(
      async () => budget.inFlight(),
      (f) => f.uploads === n,
      { what: `${n} uploads in flight` },
    );

  beforeAll(async () => {
    t = await startApi({
      ensure: [{ module: IngestionModule, schema: ingestionSchema }],
      env: { UPLOAD_MEMORY_BUDGET_MB: String(BUDGET_MB) },
      gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }] },
    });
    budget = t.app.get(UploadBudget);
    ana = await signUp(t.url, 'ana');
    ben = await signUp(t.url, 'ben');
  });
  afterAll(async () => {
    for (const h of held) h.abort();
    await t?.close();
  });

  it('reads the budget from UPLOAD_MEMORY_BUDGET_MB', () => {
    expect(budget.budgetBytes).toBe(BUDGET_MB * 1024 * 1024);
  });

  it('refuses 413 a declared Content-Length above the largest possible request, without reading its body or reserving it', async () => {
    const tooLarge = hold(ana, { contentLength: maxUploadRequestBytes(DEFAULT_GATEWAY_OPTIONS) + 1 });
    const answer = await tooLarge.answer;
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ error: 'The upload is too large.' });
    expect(answer.headers['x-error-code']).toBe('upload_too_large');
    expect(answer.headers['connection']).toBe('close');
    expect(budget.inFlight()).toEqual({ bytes: 0, uploads: 0, callers: 0 });
  });

  it('refuses 503 past the budget and 429 past the account cap while uploads are held mid-body, and admits again once they close', async () => {
    const first = hold(ana);
    await uploadsInFlight(1);
    const second = hold(ana);
    await uploadsInFlight(2);

    // Ben's upload of the same size would pass the budget: 503 with Retry-After, before its body is read.
    const busy = await uploadDocuments(ben, fields, [{ name: 'pares.json', data: paddedPairs(UPLOAD_BYTES) }]);
    expect(busy.status).toBe(503);
    expect(busy.body).toEqual({ error: 'The server is busy with other uploads. Please try again shortly.' });
    expect(busy.headers['retry-after']).toBe(String(UPLOAD_RETRY_AFTER_SECONDS));
    expect(busy.headers['x-error-code']).toBe('uploads_busy');
    // Chunked (no Content-Length): it reserves the largest possible upload, so it waits too.
    const chunked = await hold(ben, { contentLength: null }).answer;
    expect({ status: chunked.status, code: chunked.headers['x-error-code'] }).toEqual({ status: 503, code: 'uploads_busy' });

    // A third upload of Ana's account, however small: 429 with Retry-After.
    const third = await uploadDocuments(ana, fields, [{ name: 'pares.json', data: paddedPairs(64) }]);
    expect(third.status).toBe(429);
    expect(third.body).toEqual({ error: 'Too many uploads in progress for this account. Please wait for one to finish.' });
    expect(third.headers['retry-after']).toBe(String(UPLOAD_RETRY_AFTER_SECONDS));
    expect(third.headers['x-error-code']).toBe('too_many_uploads');
    // The same budget guards the file translation upload.
    const file = await ana.agent
      .post('/api/translate/file')
      .set('X-CSRF-Token', ana.csrf)
      .field('model_id', 'any')
      .attach('file', Buffer.from('hola\n'), 'a.txt');
    expect({ status: file.status, code: file.headers['x-error-code'] }).toEqual({ status: 429, code: 'too_many_uploads' });
    expect(budget.inFlight()).toEqual({ bytes: 2 * UPLOAD_BYTES, uploads: 2, callers: 1 });

    // One held upload is dropped by its client, the other finishes (a normal upload: 200 and a task).
    first.abort();
    const done = await second.finish();
    expect(done.status).toBe(200);
    expect(done.body.task_id).toEqual(expect.any(String));

    // Ben's upload is admitted again once the reservations are given back.
    const admitted = await waitFor(
      () => uploadDocuments(ben, fields, [{ name: 'pares.json', data: paddedPairs(UPLOAD_BYTES) }]),
      (r) => r.status !== 503,
      { what: "Ben's upload admitted" },
    );
    expect(admitted.status).toBe(200);
    expect(admitted.body.task_id).toEqual(expect.any(String));
    // Every reservation was given back exactly once: nothing left, nothing below zero.
    await uploadsInFlight(0);
    expect(budget.inFlight()).toEqual({ bytes: 0, uploads: 0, callers: 0 });
    await t.drain();
  });
});

import { io, type Socket } from 'socket.io-client';
import { randomUUID } from 'node:crypto';
import { waitFor, type TestApp } from '@gaia/testing';
import { GaiaClient, GaiaNotFoundError, GaiaPermissionError, GaiaValidationError } from '@gaia/client';
import type { TranslateFileTaskDto } from '@gaia/contracts';
import { ManualClock } from '@gaia/shared/kernel';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { signUp, startApi, type User } from './support/api-app';
import { TINY_ES_QU, type CorpusPair } from './fixtures/real-agent';
import { paidCaller } from './support/paid-caller';

/**
 * The tiny made-up es→qu corpus and two pairs whose source texts need escaping in the file formats (a comma in
 * CSV, an ampersand in XML). The corpus sentences answer their targets; the engine's answer for the two escaped
 * ones is read from the JSON API and expected in the file, encoded in its format.
 */
const FILE_PAIRS: readonly CorpusPair[] = [
  ...TINY_ES_QU,
  { source: 'hola, amigo', target: 'napaykullayki, masiy' },
  { source: 'pan & agua', target: 'tanta & yaku' },
];

/**
 * File translation through @gaia/client (POST /api/translate/file, status, download) on the platform
 * composition, with the real translation service and a real agent learned from a tiny made-up corpus.
 */
describe('file translation (TXT, CSV/TSV, TMX, XLIFF)', () => {
  let t: TestApp & { url: string };
  let owner: User;
  let keyed: GaiaClient;
  let agentId: string;
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  const fields = () => ({ model_id: agentId, src_lang: 'es', tgt_lang: 'qu' });

  beforeAll(async () => {
    t = await startApi();
    // Every segment is metered: the Starter plan's words cover the suite (Free allows 10 translations a day).
    const caller = await paidCaller(t, 'files', { srcLang: 'es', tgtLang: 'qu', pairs: FILE_PAIRS });
    ({ user: owner, agentId } = caller);
    keyed = new GaiaClient({ baseUrl: t.url, apiKey: caller.key });
  });
  afterAll(() => t?.close());

  /** Usage billed for a file task's segments (request ids `translate-file-<task>-…`), once every event is delivered. */
  const billedSegments = async (taskId: string): Promise<number> => {
    await t.drain();
    return (await t.dataSource.query(`SELECT count(*)::int AS n FROM billing_usage WHERE request_id LIKE $1`, [`translate-file-${taskId}-%`]))[0].n;
  };
  /** Authorizations of a file task's segments (a paid key's are written in batches, about once a second). */
  const authorizedSegments = async (taskId: string): Promise<number> =>
    (await t.dataSource.query(`SELECT count(*)::int AS n FROM billing_authorization WHERE request_id LIKE $1`, [`translate-file-${taskId}-%`]))[0].n;
  /** The real engine's answer for a text (JSON API), to expect it in a translated file. */
  const answer = async (text: string): Promise<string> => {
    const r = await keyed.translate({ ...fields(), text });
    expect(r.data.translation.length).toBeGreaterThan(0);
    return r.data.translation;
  };
  const csvCell = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const translate = async (name: string, content: string, extra: Record<string, string> = {}) => {
    const started = await keyed.translateFile({ ...fields(), ...extra, file: { name, data: content } });
    const task = await keyed.waitForFileTranslation(started.task_id, { intervalMs: 20 });
    return { started, task, out: decode(await keyed.downloadTranslatedFile(started.task_id)) };
  };

  it('TXT: line by line, blank lines kept', async () => {
    const { started, task, out } = await translate('poema.txt', 'buenos días\n\ngracias\n');
    expect(started.total_segments).toBe(2);
    expect(task).toMatchObject({ status: 'COMPLETED', progress: 100, format: 'txt', translated_segments: 2, failed_segments: 0, file_name: 'poema.txt' });
    expect(out).toBe('allin punchaw\n\nsulpayki\n');
  });

  it('CSV: the chosen column into a target column named after the language; TSV by index', async () => {
    const csv = await translate('frases.csv', 'id,es\n1,"hola, amigo"\n2,buenos días\n', { column: 'es' });
    expect(csv.out).toBe(`id,es,qu\n1,"hola, amigo",${csvCell(await answer('hola, amigo'))}\n2,buenos días,allin punchaw\n`);
    const tsv = await translate('frases.tsv', 'n\ttexto\n1\tel agua\n', { column: '1' });
    expect(tsv.out).toBe('n\ttexto\tqu\n1\tel agua\tyaku\n');
  });

  it('TMX and XLIFF 1.2/2.0: the same format back with the targets filled', async () => {
    const tmx =
      '<?xml version="1.0"?>\n<tmx version="1.4"><header srclang="es"/><body>\n<tu><tuv xml:lang="es"><seg>pan &amp; agua</seg></tuv></tu>\n</body></tmx>\n';
    expect((await translate('memoria.tmx', tmx)).out).toBe(
      tmx.replace('</tuv></tu>', `</tuv><tuv xml:lang="qu"><seg>${xmlText(await answer('pan & agua'))}</seg></tuv></tu>`),
    );
    const x12 =
      '<xliff version="1.2"><file source-language="es" target-language="qu"><body><trans-unit id="1"><source>la casa</source><target/></trans-unit></body></file></xliff>';
    expect((await translate('ui.xlf', x12)).out).toBe(x12.replace('<target/>', '<target>wasi</target>'));
    const x20 = '<xliff version="2.0" srcLang="es" trgLang="qu"><file id="f"><unit id="u"><segment><source>el río</source></segment></unit></file></xliff>';
    expect((await translate('ui2.xliff', x20)).out).toBe(x20.replace('<source>el río</source>', '<source>el río</source><target>mayu</target>'));
  });

  it('meters every segment; a segment over the limits keeps an empty target', async () => {
    const long = Array.from({ length: 51 }, (_, i) => `w${i}`).join(' ');
    const { started, task, out } = await translate('mix.txt', `el sol\n${long}\nla luna\n`);
    expect(task).toMatchObject({ status: 'COMPLETED', translated_segments: 2, failed_segments: 1 });
    expect(task.message).toMatch(/Segment 2: Text is too long: 51 words/);
    expect(out).toBe(`inti\n${long}\nkilla\n`);
    // the real service records the usage of each translated segment; the one over the limits never reaches it
    expect(await billedSegments(started.task_id)).toBe(2);
    // and authorized each one once (the batched authorization rows land; nothing for the refused segment)
    await waitFor(
      () => authorizedSegments(started.task_id),
      (n) => n >= 2,
      { what: 'segment authorizations written' },
    );
    expect(await authorizedSegments(started.task_id)).toBe(2);
  });

  it('pushes progress over Socket.IO to the owner (translate_file_progress) until COMPLETED', async () => {
    const socket: Socket = io(t.url, {
      path: '/socket.io',
      transports: ['websocket'],
      extraHeaders: { cookie: owner.cookie },
      reconnection: false,
      forceNew: true,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.on('connect', () => resolve());
        socket.on('connect_error', reject);
      });
      const seen: TranslateFileTaskDto[] = [];
      const done = new Promise<void>((resolve) =>
        socket.on('translate_file_progress', (task: TranslateFileTaskDto) => {
          seen.push(task);
          if (task.status !== 'PROCESSING') resolve();
        }),
      );
      const session = new GaiaClient({ baseUrl: t.url });
      const lines = Array.from({ length: 45 }, (_, i) => `línea ${i}`).join('\n');
      const started = await keyed.translateFile({ ...fields(), file: { name: 'largo.txt', data: lines } });
      await done;
      expect(seen.at(-1)).toMatchObject({ id: started.task_id, status: 'COMPLETED', translated_segments: 45 });
      expect(seen.every((x) => x.id === started.task_id)).toBe(true);
      const progress = seen.map((x) => x.progress);
      expect(progress.length).toBeGreaterThanOrEqual(3);
      expect([...progress].sort((a, b) => a - b)).toEqual(progress);
      expect(progress.at(-1)).toBe(100);
      expect(session).toBeDefined();
    } finally {
      socket.close();
    }
  });

  it('downloads a file whose name is written in the language (Guaraní ẽ, ỹ are outside Latin-1)', async () => {
    const { task, out } = await translate('ñe\u1EBDnga-ỹ.txt', 'buenos días\n');
    expect(task).toMatchObject({ status: 'COMPLETED', file_name: 'ñe\u1EBDnga-ỹ.txt' });
    expect(out).toBe('allin punchaw\n');
  });

  it("refuses an unknown agent, the public key, an unsupported file; another user's task is not found", async () => {
    await expect(keyed.translateFile({ ...fields(), model_id: 'no-such-agent', file: { name: 'a.txt', data: 'hola' } })).rejects.toEqual(
      new GaiaNotFoundError('Model not found.', 404),
    );
    await expect(keyed.translateFile({ ...fields(), file: { name: 'a.pdf', data: 'x' } })).rejects.toBeInstanceOf(GaiaValidationError);
    await expect(keyed.translateFile({ ...fields(), file: { name: 'vacío.txt', data: '\n\n' } })).rejects.toMatchObject({
      status: 400,
      message: 'vacío.txt: nothing to translate.',
    });
    const publicKey = (await new GaiaClient({ baseUrl: t.url }).publicConfig()).publicApiKey;
    await expect(
      new GaiaClient({ baseUrl: t.url, apiKey: publicKey }).translateFile({ ...fields(), file: { name: 'a.txt', data: 'hola' } }),
    ).rejects.toBeInstanceOf(GaiaPermissionError);
    const started = await keyed.translateFile({ ...fields(), file: { name: 'mine.txt', data: 'hola' } });
    await keyed.waitForFileTranslation(started.task_id, { intervalMs: 20 });
    const other = await signUp(t.url, 'other-files');
    await other.agent.get(`/api/translate/file/status?task_id=${started.task_id}`).expect(404);
    await other.agent.get(`/api/translate/file/download?task_id=${started.task_id}`).expect(404);
    expect((await owner.agent.get(`/api/translate/file/download?task_id=${started.task_id}`).expect(200)).headers['content-disposition']).toContain(
      'mine.qu.txt',
    );
  });
});

describe('file translation: an interrupted task on the CLOCK', () => {
  let t: TestApp & { url: string };
  const clock = new ManualClock(new Date());
  /** FILE_TASK_STALE_MS of the gateway (5 minutes) and a second more. */
  const PAST_STALE_MS = 5 * 60_000 + 1000;

  beforeAll(async () => {
    t = await startApi({ clock });
  });
  afterAll(() => t?.close());

  it('reports a PROCESSING task FAILED once it has not moved for the stale time of the CLOCK', async () => {
    const user = await signUp(t.url, 'stale-files');
    const id = randomUUID();
    const now = clock.now().toISOString();
    // A task left PROCESSING by a gateway that stopped (written as the store does).
    const task = {
      id,
      status: 'PROCESSING',
      progress: 10,
      message: null,
      format: 'txt',
      file_name: 'a.txt',
      model_id: 'agent',
      total_segments: 40,
      translated_segments: 4,
      failed_segments: 0,
      created_at: now,
      owner_id: user.uid,
      src_lang: 'es',
      tgt_lang: 'qu',
      column: null,
      updated_at: now,
    };
    await t.app.get<FileStorage>(FILE_STORAGE).put(`translate-files/${id}/task.json`, new TextEncoder().encode(JSON.stringify(task)));
    const status = async () => (await user.agent.get(`/api/translate/file/status?task_id=${id}`).expect(200)).body.task as TranslateFileTaskDto;
    expect(await status()).toMatchObject({ status: 'PROCESSING' });
    clock.advance(PAST_STALE_MS);
    expect(await status()).toMatchObject({ status: 'FAILED', message: 'The translation was interrupted. Please upload the file again.' });
  });
});

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { Client } from 'pg';
import { createTestDatabase, syntheticCorpus, type TestDatabase } from '@gaia/testing';

const root = join(__dirname, '../..');
const enc = (s: string) => new TextEncoder().encode(s);
const distinct = (pairs: { source: string; target: string }[]): number => new Set(pairs.map((p) => `${p.source}\t${p.target}`)).size;
const BIBLE = syntheticCorpus(120, 21);
const MEMORY = syntheticCorpus(50, 33);

/** Archives in OPUS's real layouts: Moses = `<corpus>.<src>-<tgt>.<lang>` halves + README + LICENSE; TMX = `<src>-<tgt>.tmx`. */
const mosesZip = zipSync({
  'Tiny.es-xx.es': enc(BIBLE.map((p) => p.source).join('\n') + '\n'),
  'Tiny.es-xx.xx': enc(BIBLE.map((p) => p.target).join('\n') + '\n'),
  README: enc('Tiny corpus (test double of an OPUS release)\n'),
  LICENSE: enc('CC BY 4.0\n'),
});
const tmxZip = zipSync({
  'es-xx.tmx': enc(
    `<?xml version="1.0" encoding="utf-8"?>\n<tmx version="1.4">\n<header srclang="es" adminlang="en" segtype="sentence" datatype="PlainText" o-tmf="unknown" creationtool="Uplug" creationtoolversion="unknown"/>\n<body>\n` +
      MEMORY.map((p) => `<tu><tuv xml:lang="es"><seg>${p.source}</seg></tuv><tuv xml:lang="xx"><seg>${p.target}</seg></tuv></tu>`).join('\n') +
      '\n</body>\n</tmx>\n',
  ),
});

describe('public corpora discovery (gaia corpora) against a catalogue speaking the OPUS API', () => {
  let db: TestDatabase;
  let server: Server;
  let base = '';
  const queries: string[] = [];
  const work = mkdtempSync(join(tmpdir(), 'gaia-corpora-'));

  const gaia = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) =>
      execFile(
        process.execPath,
        [join(root, 'tools/gaia.mjs'), ...args],
        {
          cwd: root,
          env: {
            ...process.env,
            DATABASE_URL: db.url,
            DATA_DIR: join(work, 'data'),
            FILE_STORAGE_DIR: join(work, 'files'),
            MESSAGING_TRANSPORT: 'inprocess',
            DATABASE_POOL_SIZE: '4',
            LOG_LEVEL: 'warn',
            PUBLIC_CORPORA_URL: `${base}/opusapi/`,
          },
          maxBuffer: 16 * 1024 * 1024,
        },
        (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    );
  const json = async <T>(...args: string[]): Promise<T> => {
    const r = await gaia(...args, '--json');
    if (r.code !== 0) throw new Error(`gaia ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
    return JSON.parse(r.stdout) as T;
  };

  beforeAll(async () => {
    db = await createTestDatabase({ prefix: 'gaia_corpora' });
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/opusapi/') {
        queries.push(url.search);
        const q = Object.fromEntries(url.searchParams);
        const corpora =
          q['source'] !== 'es' || q['target'] !== 'xx'
            ? []
            : q['preprocessing'] === 'moses'
              ? [
                  {
                    alignment_pairs: BIBLE.length,
                    corpus: 'Tiny',
                    documents: '',
                    id: 1,
                    latest: 'True',
                    preprocessing: 'moses',
                    size: 12,
                    source: 'es',
                    target: 'xx',
                    url: `${base}/download/Tiny/v1/moses/es-xx.txt.zip`,
                    version: 'v1',
                    license: 'CC BY 4.0',
                  },
                ]
              : [
                  {
                    alignment_pairs: BIBLE.length,
                    corpus: 'Tiny',
                    documents: '',
                    id: 2,
                    latest: 'True',
                    preprocessing: 'tmx',
                    size: 20,
                    source: 'es',
                    target: 'xx',
                    url: `${base}/download/Tiny/v1/tmx/es-xx.tmx.zip`,
                    version: 'v1',
                    license: 'CC BY 4.0',
                  },
                  {
                    alignment_pairs: MEMORY.length,
                    corpus: 'Memory',
                    documents: '',
                    id: 3,
                    latest: 'True',
                    preprocessing: 'tmx',
                    size: 8,
                    source: 'es',
                    target: 'xx',
                    url: `${base}/download/Memory/v2/tmx/es-xx.tmx.zip`,
                    version: 'v2',
                  },
                ];
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ corpora }));
      }
      const body =
        url.pathname === '/download/Tiny/v1/moses/es-xx.txt.zip' ? mosesZip : url.pathname === '/download/Memory/v2/tmx/es-xx.tmx.zip' ? tmxZip : null;
      if (!body) {
        res.writeHead(404);
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(body.byteLength) });
      res.end(Buffer.from(body));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await db?.drop();
    rmSync(work, { recursive: true, force: true });
  });

  it('lists the corpora of a language pair with name, size, license and formats', async () => {
    const corpora = await json<{ name: string; version: string; pairs: number; size_bytes: number; license: string; format: string }[]>(
      'corpora',
      'list',
      'es',
      'xx',
    );
    expect(corpora).toEqual([
      { name: 'Tiny', version: 'v1', pairs: BIBLE.length, size_bytes: 12 * 1024, license: 'CC BY 4.0', format: 'moses' },
      { name: 'Tiny', version: 'v1', pairs: BIBLE.length, size_bytes: 20 * 1024, license: 'CC BY 4.0', format: 'tmx' },
      { name: 'Memory', version: 'v2', pairs: MEMORY.length, size_bytes: 8 * 1024, license: 'unspecified', format: 'tmx' },
    ]);
    expect(queries).toEqual(
      expect.arrayContaining(['?source=es&target=xx&preprocessing=moses&version=latest', '?source=es&target=xx&preprocessing=tmx&version=latest']),
    );
    expect(await json('corpora', 'list', 'es', 'zz')).toEqual([]);
  });

  it('imports a Moses zip into a new public agent and a TMX zip into that agent, through ingestion, license on the agent', async () => {
    const created = await json<{ agent_id: string; status: string; pair_count: number; public: boolean; description: string; license: string }>(
      'corpora',
      'import',
      'es',
      'xx',
      'Tiny',
    );
    expect(created).toMatchObject({ status: 'COMPLETED', pair_count: distinct(BIBLE), public: true, license: 'CC BY 4.0' });
    expect(created.description).toBe(`Public data: Tiny v1 (${BIBLE.length} pairs), license: CC BY 4.0.`);

    const added = await json<{ agent_id: string; status: string; pair_count: number; description: string }>(
      'corpora',
      'import',
      'es',
      'xx',
      'Memory',
      '--format=tmx',
      `--agent=${created.agent_id}`,
    );
    expect(added.agent_id).toBe(created.agent_id);
    expect(added.status).toBe('COMPLETED');
    expect(added.pair_count).toBe(distinct([...BIBLE, ...MEMORY]));
    expect(added.description).toBe(
      `Public data: Tiny v1 (${BIBLE.length} pairs), license: CC BY 4.0.\nPublic data: Memory v2 (${MEMORY.length} pairs), license: unspecified.`,
    );

    // Stored like any upload: the archive is an ingestion file of the agent, parsed by the normal path.
    const sql = new Client({ connectionString: db.url });
    await sql.connect();
    try {
      const files = (await sql.query(`SELECT filename FROM ingestion_file WHERE agent_id = $1 ORDER BY filename`, [created.agent_id])).rows.map(
        (r: { filename: string }) => r.filename,
      );
      expect(files).toEqual(['Memory-v2.es-xx.tmx.zip', 'Tiny-v1.es-xx.moses.zip']);
    } finally {
      await sql.end();
    }
    const missing = await gaia('corpora', 'import', 'es', 'xx', 'Nope');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No public corpus Nope for es-xx.');
  });
});

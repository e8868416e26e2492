import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestApp } from '@gaia/testing';
import { startApi } from './support/api-app';
import { runProcess } from './support/run-process';
import type { CorpusPair } from './fixtures/real-agent';
import { paidCaller } from './support/paid-caller';

const ROOT = join(__dirname, '../..');
/** The files the documentation page shows (apps/web/src/public/documentation/examples). */
const EXAMPLES = join(ROOT, 'apps/web/src/public/documentation/examples');
const EXAMPLE_ORIGIN = 'http://localhost:8080';

/**
 * A tiny made-up Quechua → Spanish corpus in the examples' languages, holding the two texts the examples translate
 * (so the real engine answers their known targets).
 */
const DOCS_QU_ES: readonly CorpusPair[] = [
  ['Allinllachu kashanki?', '¿Cómo estás?'],
  ['Sulpayki', 'Gracias'],
  ['allin punchaw', 'buenos días'],
  ['allin tuta', 'buenas noches'],
  ['yaku', 'el agua'],
  ['wasi', 'la casa'],
  ['inti', 'el sol'],
  ['killa', 'la luna'],
  ['allqu', 'el perro'],
  ['mayu', 'el río'],
].map(([source, target]) => ({ source, target }));
const HOW_ARE_YOU = '¿Cómo estás?';
const THANKS = 'Gracias';

// npm_config_offline: `npx gaia-translate` must resolve to this repo's bin, never to a registry download.
const run = (cmd: string, args: string[], cwd: string) => runProcess(cmd, args, { cwd, env: { npm_config_offline: 'true' } });

/**
 * The documentation's examples (cURL, @gaia/client, the gaia-translate CLI) run as a reader would run them,
 * against a real gateway and the real translation service with a real agent: only the placeholders (origin,
 * API key, model id) are replaced.
 */
describe('documentation examples', () => {
  let t: TestApp & { url: string };
  let key: string;
  let agentId: string;
  // Inside the repo, so `npx gaia-translate` finds the repo's bin (as in a project that installed @gaia/client).
  const work = join(ROOT, 'tmp', `docs-examples-${process.pid}`);
  const example = (name: string) =>
    readFileSync(join(EXAMPLES, name), 'utf8').split(EXAMPLE_ORIGIN).join(t.url).split('YOUR_API_KEY').join(key).split('YOUR_MODEL_ID').join(agentId);

  beforeAll(async () => {
    t = await startApi();
    // A reader on the Starter plan (no daily call limit) with a public real agent learned from the tiny corpus.
    ({ agentId, key } = await paidCaller(t, 'docs', { srcLang: 'quechua', tgtLang: 'spanish', pairs: DOCS_QU_ES }));
    mkdirSync(work, { recursive: true });
  });
  afterAll(async () => {
    rmSync(work, { recursive: true, force: true });
    await t?.close();
  });

  it('cURL: streams the SSE events of a translation', async () => {
    const r = await run('bash', ['-c', example('translate.curl.sh')], work);
    expect(r.code).toBe(0);
    const events = r.stdout
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)) as { type: string; final_translation?: string });
    expect(events.at(-1)).toMatchObject({ type: 'translation_complete', final_translation: HOW_ARE_YOU });
  });

  it('@gaia/client: JSON, stream, batch and a typed error, from the published package', async () => {
    const pkg = join(work, 'node_modules/@gaia/client');
    execFileSync(process.execPath, [join(ROOT, 'tools/build-client.mjs'), pkg, '--js-only'], { cwd: ROOT, stdio: 'pipe' });
    writeFileSync(join(work, 'example.mjs'), example('translate.client.mjs'));
    const r = await run(process.execPath, ['example.mjs'], work);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout.split('\n')).toEqual([
      HOW_ARE_YOU,
      expect.stringMatching(/^¿Cómo estás\? \([\d.]+ s\)$/),
      `0 ${HOW_ARE_YOU}`,
      `1 ${THANKS}`,
      '404 Model not found.',
      '',
    ]);
  });

  it('CLI: a text file line by line, and a TMX file into TMX', async () => {
    writeFileSync(join(work, 'phrases.txt'), 'Allinllachu kashanki?\nSulpayki\n');
    writeFileSync(join(work, 'memory.tmx'), '<tmx version="1.4"><body><tu><tuv xml:lang="quechua"><seg>Sulpayki</seg></tuv></tu></body></tmx>\n');
    const r = await run('bash', ['-e', '-c', example('translate.cli.sh')], work);
    expect(r).toMatchObject({ code: 0 });
    expect(readFileSync(join(work, 'phrases.es.txt'), 'utf8')).toBe(`${HOW_ARE_YOU}\n${THANKS}\n`);
    expect(readFileSync(join(work, 'memory.es.tmx'), 'utf8')).toBe(
      `<tmx version="1.4"><body><tu><tuv xml:lang="quechua"><seg>Sulpayki</seg></tuv><tuv xml:lang="spanish"><seg>${THANKS}</seg></tuv></tu></body></tmx>\n`,
    );
  });
});

import { readFile, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { GaiaApiError } from '../lib/errors';
import { GaiaClient } from '../lib/gaia-client';

/**
 * `gaia-translate`: translate text or files with a Gaia agent from the command line (built on @gaia/client).
 *   gaia-translate --key KEY --agent AGENT_ID < in.txt > out.txt     one translation per non-blank line
 *   gaia-translate --key KEY --agent AGENT_ID --file in.tmx [--out out.tmx] [--column es]
 * A progress bar goes to stderr for long inputs (when stderr is a terminal, or with --progress).
 */
export const USAGE = `Usage:
  gaia-translate --key KEY --agent AGENT_ID [--url URL] [--from LANG --to LANG] [--confidence] < in.txt > out.txt
  gaia-translate --key KEY --agent AGENT_ID --file in.tmx [--out out.tmx] [--column NAME|INDEX] [--format txt|csv|tsv|tmx|xliff]

Options:
  --key       API key (default: $GAIA_API_KEY)
  --agent     agent (model) id
  --url       Gaia URL (default: $GAIA_URL or http://localhost:8080)
  --from/--to source and target languages (default: the agent's)
  --file      translate a TXT, CSV/TSV, TMX or XLIFF file into the same format (written to --out or stdout)
  --column    CSV/TSV column to translate (name or 0-based index; default the first)
  --progress  always show the progress bar on stderr (default: when stderr is a terminal and the input is long)
  --retries   retries of a 429/503 after its Retry-After (default 3)
  --confidence  after each translated line, a tab and the answer's confidence (0-1; line input only)
Lines that fail are written empty (so lines stay aligned) and reported on stderr; the exit code is then 2.`;

/** Inputs with at least this many segments get a progress bar (on a terminal). */
export const PROGRESS_MIN_SEGMENTS = 20;
/** Lines per batch request (the API's maximum). */
const LINES_PER_BATCH = 100;
const DEFAULT_URL = 'http://localhost:8080';
const DEFAULT_RETRIES = 3;
const BAR_WIDTH = 30;
const FILE_POLL_MS = 500;
/** Decimals of the confidence printed by --confidence. */
const CONFIDENCE_DECIMALS = 2;

export interface CliIo {
  argv: string[];
  env: Record<string, string | undefined>;
  stdin: () => Promise<string>;
  stdout: (chunk: string | Uint8Array) => void;
  stderr: (chunk: string) => void;
  stderrIsTty: boolean;
}

class UsageError extends Error {}

function progressBar(io: CliIo, enabled: boolean) {
  let last = '';
  return {
    update(done: number, total: number) {
      if (!enabled || total === 0) return;
      const ratio = Math.min(1, done / total);
      const filled = Math.round(ratio * BAR_WIDTH);
      const line = `\r[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${Math.round(ratio * 100)}% ${done}/${total}`;
      if (line !== last) io.stderr(line);
      last = line;
    },
    end() {
      if (enabled && last) io.stderr('\n');
    },
  };
}

/** Runs the command; resolves with the exit code (0 ok, 1 error, 2 some lines failed). */
export async function runGaiaTranslate(io: CliIo): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: io.argv,
      options: {
        key: { type: 'string' },
        agent: { type: 'string' },
        url: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        file: { type: 'string' },
        out: { type: 'string' },
        column: { type: 'string' },
        format: { type: 'string' },
        progress: { type: 'boolean' },
        retries: { type: 'string' },
        confidence: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values;
  } catch (e) {
    io.stderr(`${(e as Error).message}\n\n${USAGE}\n`);
    return 1;
  }
  if (values['help']) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  try {
    const key = (values['key'] as string | undefined) ?? io.env['GAIA_API_KEY'];
    const agentId = values['agent'] as string | undefined;
    if (!key || !agentId) throw new UsageError('--key (or GAIA_API_KEY) and --agent are required.');
    const retries = values['retries'] === undefined ? DEFAULT_RETRIES : Number(values['retries']);
    if (!Number.isInteger(retries) || retries < 0) throw new UsageError('--retries must be a whole number.');
    const gaia = new GaiaClient({ baseUrl: (values['url'] as string | undefined) ?? io.env['GAIA_URL'] ?? DEFAULT_URL, apiKey: key, retry: { retries } });
    let from = values['from'] as string | undefined;
    let to = values['to'] as string | undefined;
    if (!from || !to) {
      const agent = await gaia.getAgent(agentId);
      from ??= agent.src_lang;
      to ??= agent.tgt_lang;
    }
    const force = values['progress'] === true;
    const file = values['file'] as string | undefined;
    const confidence = values['confidence'] === true;
    if (file && confidence) throw new UsageError('--confidence applies to line input only (not --file).');
    if (file)
      return await translateFile(io, gaia, {
        agentId,
        from,
        to,
        file,
        out: values['out'] as string | undefined,
        column: values['column'] as string | undefined,
        format: values['format'] as string | undefined,
        force,
      });
    return await translateLines(io, gaia, { agentId, from, to, force, confidence });
  } catch (e) {
    if (e instanceof UsageError) io.stderr(`${e.message}\n\n${USAGE}\n`);
    else io.stderr(`gaia-translate: ${e instanceof GaiaApiError ? `${e.message} (HTTP ${e.status})` : (e as Error).message}\n`);
    return 1;
  }
}

async function translateLines(
  io: CliIo,
  gaia: GaiaClient,
  o: { agentId: string; from: string; to: string; force: boolean; confidence: boolean },
): Promise<number> {
  const text = await io.stdin();
  const lines = text.split(/\r?\n/);
  const trailingNewline = text.endsWith('\n');
  if (trailingNewline) lines.pop();
  const todo = lines.map((l, i) => ({ l: l.trim(), i })).filter((x) => x.l);
  const out = [...lines];
  const bar = progressBar(io, o.force || (io.stderrIsTty && todo.length >= PROGRESS_MIN_SEGMENTS));
  let done = 0;
  let failed = 0;
  bar.update(0, todo.length);
  for (let start = 0; start < todo.length; start += LINES_PER_BATCH) {
    const chunk = todo.slice(start, start + LINES_PER_BATCH);
    for await (const e of gaia.streamBatch({ texts: chunk.map((x) => x.l), model_id: o.agentId, src_lang: o.from, tgt_lang: o.to })) {
      if (e.type === 'batch_complete' || !('index' in e)) continue;
      const line = chunk[e.index];
      if (e.type === 'translation_complete') {
        out[line.i] = o.confidence ? `${e.final_translation}\t${e.confidence.toFixed(CONFIDENCE_DECIMALS)}` : e.final_translation;
        bar.update(++done, todo.length);
      } else if (e.type === 'error') {
        out[line.i] = '';
        failed++;
        bar.update(++done, todo.length);
        io.stderr(`${o.force || io.stderrIsTty ? '\n' : ''}line ${line.i + 1}: ${e.message}\n`);
      }
    }
  }
  bar.end();
  io.stdout(out.join('\n') + (trailingNewline ? '\n' : ''));
  return failed ? 2 : 0;
}

async function translateFile(
  io: CliIo,
  gaia: GaiaClient,
  o: { agentId: string; from: string; to: string; file: string; out?: string; column?: string; format?: string; force: boolean },
): Promise<number> {
  const data = new Uint8Array(await readFile(o.file));
  const started = await gaia.translateFile({
    model_id: o.agentId,
    src_lang: o.from,
    tgt_lang: o.to,
    column: o.column,
    format: o.format as 'txt' | 'csv' | 'tsv' | 'tmx' | 'xliff' | undefined,
    file: { name: basename(o.file), data },
  });
  const bar = progressBar(io, o.force || (io.stderrIsTty && started.total_segments >= PROGRESS_MIN_SEGMENTS));
  const task = await gaia.waitForFileTranslation(started.task_id, {
    intervalMs: FILE_POLL_MS,
    onProgress: (t) => bar.update(t.translated_segments + t.failed_segments, t.total_segments),
  });
  bar.end();
  const bytes = await gaia.downloadTranslatedFile(started.task_id);
  if (o.out) await writeFile(o.out, bytes);
  else io.stdout(bytes);
  if (task.failed_segments) io.stderr(`${task.message}\n`);
  return task.failed_segments ? 2 : 0;
}

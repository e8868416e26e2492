/**
 * Command-line use of the engine (an edge: this file does the I/O, the library does none).
 *
 *   gaia-engine train --src train.es --tgt train.gn --out ./agent [--src-lang es --tgt-lang gn]
 *   gaia-engine translate --agent ./agent [--reverse] [--k 8] < input.txt > output.txt
 *   gaia-engine lexicon --agent ./agent [--reverse] "text"
 *   gaia-engine search --agent ./agent [--reverse] [--k 5] "text"
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { deserializeModel, HybridIndex, lookupLexicon, serializeModel, summarizeCoreMemory, trainAgentModel, Translator } from './index';
import type { ParallelPair } from './index';

function args(argv: string[]): { cmd: string; opts: Record<string, string | boolean>; rest: string[] } {
  const [cmd = 'help', ...tail] = argv;
  const opts: Record<string, string | boolean> = {};
  const rest: string[] = [];
  for (let i = 0; i < tail.length; i++) {
    const a = tail[i];
    if (a.startsWith('--')) {
      const next = tail[i + 1];
      if (next === undefined || next.startsWith('--')) opts[a.slice(2)] = true;
      else {
        opts[a.slice(2)] = next;
        i++;
      }
    } else rest.push(a);
  }
  return { cmd, opts, rest };
}

function readLines(f: string): string[] {
  const lines = fs
    .readFileSync(f, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function load(dir: string): { tr: Translator; index: HybridIndex; model: ReturnType<typeof deserializeModel> } {
  const model = deserializeModel(fs.readFileSync(path.join(dir, 'model.bin')));
  const index = HybridIndex.deserialize(fs.readFileSync(path.join(dir, 'index.bin')));
  return { tr: new Translator(model, index), index, model };
}

export async function main(argv: string[]): Promise<number> {
  const { cmd, opts, rest } = args(argv);
  const direction = opts.reverse ? 'reverse' : 'forward';
  if (cmd === 'train') {
    if (typeof opts.src !== 'string' || typeof opts.tgt !== 'string' || typeof opts.out !== 'string') {
      process.stderr.write('usage: train --src <file> --tgt <file> --out <dir>\n');
      return 2;
    }
    const s = readLines(opts.src);
    const t = readLines(opts.tgt);
    const pairs: ParallelPair[] = s.slice(0, Math.min(s.length, t.length)).map((x, i) => ({ id: String(i), source: x, target: t[i] }));
    const model = trainAgentModel(pairs, { onProgress: (f, m) => process.stderr.write(`\r${Math.round(f * 100)}% ${m}`.padEnd(60)) });
    process.stderr.write('\n');
    const index = new HybridIndex();
    index.add(pairs);
    fs.mkdirSync(opts.out, { recursive: true });
    fs.writeFileSync(path.join(opts.out, 'model.bin'), serializeModel(model));
    fs.writeFileSync(path.join(opts.out, 'index.bin'), index.serialize());
    const summary = summarizeCoreMemory(model, {
      srcLang: typeof opts['src-lang'] === 'string' ? opts['src-lang'] : undefined,
      tgtLang: typeof opts['tgt-lang'] === 'string' ? opts['tgt-lang'] : undefined,
    });
    fs.writeFileSync(path.join(opts.out, 'core-memory.md'), summary + '\n');
    process.stderr.write(`agent written to ${opts.out} (${pairs.length} pairs, ${model.stats.trainSeconds.toFixed(1)} s)\n`);
    return 0;
  }
  if (cmd === 'translate') {
    const { tr } = load(String(opts.agent ?? '.'));
    const k = typeof opts.k === 'string' ? Number(opts.k) : undefined;
    const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of rl) {
      const out = line.trim() ? tr.translateText(line, { direction, k }).translation : '';
      process.stdout.write(out.replace(/\n/g, ' ') + '\n');
    }
    return 0;
  }
  if (cmd === 'lexicon') {
    const { model } = load(String(opts.agent ?? '.'));
    process.stdout.write(JSON.stringify(lookupLexicon(model, rest.join(' '), direction), null, 2) + '\n');
    return 0;
  }
  if (cmd === 'search') {
    const { index } = load(String(opts.agent ?? '.'));
    const k = typeof opts.k === 'string' ? Number(opts.k) : 5;
    process.stdout.write(JSON.stringify(index.search(rest.join(' '), k, { side: direction === 'reverse' ? 'target' : 'source' }), null, 2) + '\n');
    return 0;
  }
  process.stdout.write(
    'gaia-engine train --src <file> --tgt <file> --out <dir> | translate --agent <dir> [--reverse] [--k N] < in > out | lexicon --agent <dir> "text" | search --agent <dir> "text"\n',
  );
  return cmd === 'help' ? 0 : 2;
}

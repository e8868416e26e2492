import type { SeedFile } from './seed-source.port';

/** One agent to build: the files of a `<src>-<tgt>` folder. */
export interface SeedGroup {
  /** Folder name relative to the seed folder ('' = the seed folder itself). */
  dir: string;
  srcLang: string;
  tgtLang: string;
  files: SeedFile[];
}

export interface SeedPlan {
  groups: SeedGroup[];
  skipped: { path: string; reason: string }[];
}

/** A language-pair folder: `es-gn`, `en-quy`, … (ISO 639-1/639-3 codes). */
const PAIR_DIR = /^([a-z]{2,3})-([a-z]{2,3})$/i;
/** The shared-task layout keeps held-out data beside the training files: only `train.*` is learned from. */
const TRAIN = /^train\./i;
const IGNORED = /^(\.|readme)/i;

/**
 * Which agents `gaia seed <folder>` builds: one per language-pair folder (the folder itself, or its direct
 * sub-folders), from every file ingestion may read there — or only its `train.*` files when it has some.
 * Files beyond the upload limits are reported, not sent.
 */
export function planSeed(root: string, files: SeedFile[], limits: { maxFiles: number; maxFileBytes: number }): SeedPlan {
  const byDir = new Map<string, SeedFile[]>();
  for (const f of files) {
    if (IGNORED.test(f.name)) continue;
    byDir.set(f.dir, [...(byDir.get(f.dir) ?? []), f]);
  }
  const plan: SeedPlan = { groups: [], skipped: [] };
  for (const [dir, list] of [...byDir.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const m = PAIR_DIR.exec(dir || root);
    if (!m) {
      plan.skipped.push({ path: dir || '.', reason: 'not a <source>-<target> language folder' });
      continue;
    }
    const train = list.filter((f) => TRAIN.test(f.name));
    const chosen: SeedFile[] = [];
    for (const f of (train.length ? train : list).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = dir ? `${dir}/${f.name}` : f.name;
      if (f.size > limits.maxFileBytes) plan.skipped.push({ path, reason: `larger than ${limits.maxFileBytes} bytes` });
      else if (chosen.length >= limits.maxFiles) plan.skipped.push({ path, reason: `more than ${limits.maxFiles} files in one folder` });
      else chosen.push(f);
    }
    if (chosen.length) plan.groups.push({ dir, srcLang: m[1].toLowerCase(), tgtLang: m[2].toLowerCase(), files: chosen });
  }
  return plan;
}

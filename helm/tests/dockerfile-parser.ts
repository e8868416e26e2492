/** A small Dockerfile parser: instructions (with line continuations and comments) grouped into stages. */
export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

export interface Stage {
  name: string | undefined;
  base: string;
  index: number;
  instructions: Instruction[];
}

export interface Dockerfile {
  /** Instructions before the first FROM (ARG only, per the Dockerfile reference). */
  preamble: Instruction[];
  stages: Stage[];
}

export function parseInstructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  const lines = text.split(/\r?\n/);
  let buffer = '';
  let start = 0;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    const trimmed = raw.trim();
    if (!buffer && (trimmed === '' || trimmed.startsWith('#'))) continue;
    if (buffer && trimmed.startsWith('#')) continue; // comments inside a continuation are dropped
    if (!buffer) start = i + 1;
    if (trimmed.endsWith('\\')) {
      buffer += trimmed.slice(0, -1) + ' ';
      continue;
    }
    buffer += trimmed;
    const match = /^(\S+)\s*(.*)$/s.exec(buffer);
    if (match) out.push({ keyword: match[1].toUpperCase(), args: match[2].trim(), line: start });
    buffer = '';
  }
  if (buffer) throw new Error(`line ${start}: dangling line continuation`);
  return out;
}

export function parseDockerfile(text: string): Dockerfile {
  const preamble: Instruction[] = [];
  const stages: Stage[] = [];
  for (const ins of parseInstructions(text)) {
    if (ins.keyword === 'FROM') {
      const m = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args);
      if (!m) throw new Error(`line ${ins.line}: malformed FROM`);
      stages.push({ base: m[1], name: m[2], index: stages.length, instructions: [] });
    } else if (stages.length === 0) {
      preamble.push(ins);
    } else {
      stages[stages.length - 1].instructions.push(ins);
    }
  }
  return { preamble, stages };
}

/** `COPY --from=x --chown=y src... dest` → flags and paths. */
export function parseCopy(args: string): { flags: Record<string, string>; sources: string[]; dest: string } {
  const parts = args.split(/\s+/);
  const flags: Record<string, string> = {};
  while (parts[0]?.startsWith('--')) {
    const [k, v] = parts.shift()!.slice(2).split('=');
    flags[k] = v ?? 'true';
  }
  const dest = parts.pop()!;
  return { flags, sources: parts, dest };
}

/** Exec-form JSON array, or undefined for shell form. */
export function execForm(args: string): string[] | undefined {
  if (!args.startsWith('[')) return undefined;
  const parsed = JSON.parse(args) as unknown;
  if (!Array.isArray(parsed) || !parsed.every((p) => typeof p === 'string')) throw new Error(`not an exec-form array: ${args}`);
  return parsed as string[];
}

import type { DynamicModule } from '@nestjs/common';
import { runCommand } from '@gaia/shared/bootstrap';
import type { AppConfig, AppName } from '@gaia/shared/config';
import { DomainError } from '@gaia/shared/kernel';
import { agentsPublishCommand, agentsRebuildCommand } from './commands/agents.command';
import type { OperatorCommand } from './commands/command';
import { corporaImportCommand, corporaListCommand } from './commands/corpora.command';
import { keysRateLimitCommand } from './commands/keys.command';
import { outboxRetryCommand, outboxStatusCommand } from './commands/outbox.command';
import { planSetCommand, plansRequestsCommand } from './commands/plan.command';
import { seedCommand } from './commands/seed.command';
import { usersListCommand, usersShowCommand } from './commands/users.command';

export const OPERATOR_COMMANDS: OperatorCommand[] = [
  usersListCommand,
  usersShowCommand,
  planSetCommand,
  plansRequestsCommand,
  keysRateLimitCommand,
  agentsRebuildCommand,
  agentsPublishCommand,
  outboxStatusCommand,
  outboxRetryCommand,
  seedCommand,
  corporaListCommand,
  corporaImportCommand,
];

export type ParsedCommand = { command: OperatorCommand; args: string[]; flags: Record<string, string | true> } | { error: string };

/** `gaia <words…> <args…> [--json] [--flag=value]` → the command and its arguments (or a usage error). */
export function parseCommandLine(argv: string[], commands: OperatorCommand[] = OPERATOR_COMMANDS): ParsedCommand {
  const flags: Record<string, string | true> = {};
  const positional: string[] = [];
  for (const a of argv) {
    const m = /^--([a-z][a-z-]*)(?:=(.*))?$/.exec(a);
    if (m) flags[m[1]] = m[2] ?? true;
    else positional.push(a);
  }
  const command = [...commands].sort((a, b) => b.words.length - a.words.length).find((c) => c.words.every((w, i) => positional[i] === w));
  if (!command) return { error: positional.length ? `Unknown command: ${positional.join(' ')}` : 'No command given.' };
  const args = positional.slice(command.words.length);
  if (args.length < command.arity) return { error: `Usage: gaia ${command.words.join(' ')} ${command.args}` };
  return { command, args, flags };
}

export function usage(commands: OperatorCommand[] = OPERATOR_COMMANDS): string {
  const lines = commands.map((c) => [`gaia ${[...c.words, c.args].filter(Boolean).join(' ')}`, c.summary] as const);
  const width = Math.max(...lines.map(([l]) => l.length));
  return ['Gaia operator commands (add --json for machine-readable output):', ...lines.map(([l, s]) => `  ${l.padEnd(width)}  ${s}`)].join('\n');
}

const cell = (v: unknown): string => (v === null || v === undefined ? '-' : typeof v === 'object' ? JSON.stringify(v) : String(v));

function table(rows: Record<string, unknown>[]): string {
  if (!rows.length) return '(none)';
  const cols = Object.keys(rows[0]);
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(cols), ...rows.map((r) => line(cols.map((c) => cell(r[c]))))].join('\n');
}

/** Human output: a table for a list, `key: value` lines (lists as indented tables) for a record. */
export function render(value: unknown): string {
  if (Array.isArray(value)) return table(value as Record<string, unknown>[]);
  if (value && typeof value === 'object') {
    return Object.entries(value)
      .map(([k, v]) => (Array.isArray(v) ? `${k}:\n${table(v as Record<string, unknown>[]).replace(/^/gm, '  ')}` : `${k}: ${cell(v)}`))
      .join('\n');
  }
  return cell(value);
}

export interface OperatorCliSpec {
  app: AppName;
  allowEmbeddedDatabase?: boolean;
  rootModule: (ctx: { config: AppConfig; databaseUrl: string }) => DynamicModule;
}

/** `npx gaia …`: parses the command line, runs the command in a process built like the platform, prints the result. */
export async function runOperatorCli(
  argv: string[],
  spec: OperatorCliSpec,
  out: Pick<NodeJS.WriteStream, 'write'> = process.stdout,
  err: Pick<NodeJS.WriteStream, 'write'> = process.stderr,
): Promise<number> {
  if (!argv.length || argv[0] === 'help' || argv.includes('--help')) {
    out.write(`${usage()}\n`);
    return 0;
  }
  const parsed = parseCommandLine(argv);
  if ('error' in parsed) {
    err.write(`${parsed.error}\n\n${usage()}\n`);
    return 2;
  }
  try {
    return await runCommand(spec, async (app) => {
      const result = await parsed.command.run(app, parsed.args, parsed.flags);
      out.write(`${parsed.flags['json'] ? JSON.stringify(result, null, 2) : render(result)}\n`);
      return 0;
    });
  } catch (e) {
    err.write(`${e instanceof DomainError ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 1;
  }
}

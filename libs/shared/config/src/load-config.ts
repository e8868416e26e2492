import { z } from 'zod';
import { VARIABLE_GROUPS, type VariableGroup, type VariableSpec } from './catalog';

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type Groups = typeof VARIABLE_GROUPS;
type Flat<G extends VariableGroup> = UnionToIntersection<Groups[G]>;
/** The typed config of an app that reads the variable groups G. */
export type ConfigOf<G extends VariableGroup> = { [K in keyof Flat<G>]: Flat<G>[K] extends { schema: infer S extends z.ZodType } ? z.output<S> : never };

export class ConfigError extends Error {
  constructor(
    readonly app: string,
    readonly problems: string[],
  ) {
    super(`Invalid configuration for ${app}:\n${problems.map((p) => `  - ${p}`).join('\n')}\nSee docs/configuration.md.`);
    this.name = 'ConfigError';
  }
}

/**
 * Validates the environment for one app and returns a typed, frozen config. Fails fast with every
 * problem listed by variable name (never echoing secret values).
 */
export function loadConfig<G extends VariableGroup>(app: string, groups: readonly G[], env: NodeJS.ProcessEnv = process.env): Readonly<ConfigOf<G>> {
  const shape: Record<string, z.ZodType> = {};
  for (const g of groups) {
    for (const [name, spec] of Object.entries(VARIABLE_GROUPS[g] as Record<string, VariableSpec>)) shape[name] = spec.schema;
  }
  const input: Record<string, string | undefined> = {};
  for (const name of Object.keys(shape)) {
    const v = env[name];
    input[name] = v === '' ? undefined : v;
  }
  const result = z.object(shape).safeParse(input);
  if (!result.success) {
    throw new ConfigError(
      app,
      result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
    );
  }
  return Object.freeze(result.data) as Readonly<ConfigOf<G>>;
}

/** Rows for docs/configuration.md and the Helm chart checks. */
export function describeVariables(): { group: string; name: string; secret: boolean; description: string; default?: string; example?: string }[] {
  const rows = [];
  for (const [group, vars] of Object.entries(VARIABLE_GROUPS)) {
    for (const [name, spec] of Object.entries(vars as Record<string, VariableSpec>)) {
      let def: string | undefined;
      const parsed = spec.schema.safeParse(undefined);
      if (parsed.success && parsed.data !== undefined) def = String(parsed.data);
      rows.push({ group, name, secret: !!spec.secret, description: spec.description, default: def, example: spec.example });
    }
  }
  return rows;
}

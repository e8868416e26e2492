import { describe, expect, it } from 'vitest';
// Vite resolves @gaia/contracts to its zod-free constants module (vite.config.ts): these are the values the web may import.
import * as contractsValues from '@gaia/contracts';

/** Every source file of the web app, as text. */
const sources = import.meta.glob<string>(['../**/*.ts', '../**/*.tsx', '!../**/*.spec.ts', '!../**/*.spec.tsx'], {
  query: '?raw',
  import: 'default',
  eager: true,
});
const CONTRACTS_IMPORT = /import\s+(type\s+)?\{([^}]*)\}\s+from\s+'@gaia\/contracts'/g;
const DTO_DECLARATION = /^export (interface|type) (\w+(Dto|Event))\b/gm;

describe('types shared with the services', () => {
  it('come from @gaia/contracts as type-only imports; values only from its zod-free constants, so no zod reaches the bundle', () => {
    const allowed = new Set(Object.keys(contractsValues));
    const valueNames = (names: string) =>
      names
        .split(',')
        .map((n) => n.trim())
        .filter((n) => n && !n.startsWith('type '));
    const refused = Object.entries(sources).flatMap(([file, text]) =>
      [...text.matchAll(CONTRACTS_IMPORT)]
        .filter((m) => !m[1])
        .flatMap((m) =>
          valueNames(m[2])
            .filter((name) => !allowed.has(name))
            .map((name) => `${file}: ${name}`),
        ),
    );
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    expect(allowed).toContain('FIELD_MAX_LENGTH');
    expect(refused).toEqual([]);
  });

  it('are not declared again in the web app', () => {
    const copies = Object.entries(sources).flatMap(([file, text]) => [...text.matchAll(DTO_DECLARATION)].map((m) => `${file}: ${m[2]}`));
    expect(copies).toEqual([]);
  });
});

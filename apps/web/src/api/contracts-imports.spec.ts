import { describe, expect, it } from 'vitest';

/** Every source file of the web app, as text. */
const sources = import.meta.glob<string>(['../**/*.ts', '../**/*.tsx', '!../**/*.spec.ts', '!../**/*.spec.tsx'], { query: '?raw', import: 'default', eager: true });
const CONTRACTS_IMPORT = /import\s+(type\s+)?\{[^}]*\}\s+from\s+'@gaia\/contracts'/g;
const DTO_DECLARATION = /^export (interface|type) (\w+(Dto|Event))\b/gm;

describe('types shared with the services', () => {
  it('come from @gaia/contracts as type-only imports, so no contract code (zod) reaches the bundle', () => {
    const valueImports = Object.entries(sources).flatMap(([file, text]) => [...text.matchAll(CONTRACTS_IMPORT)].filter((m) => !m[1]).map(() => file));
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    expect(valueImports).toEqual([]);
  });

  it('are not declared again in the web app', () => {
    const copies = Object.entries(sources).flatMap(([file, text]) => [...text.matchAll(DTO_DECLARATION)].map((m) => `${file}: ${m[2]}`));
    expect(copies).toEqual([]);
  });
});

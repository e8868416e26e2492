import type { MixedList, EntitySchema } from 'typeorm';

/**
 * What a domain contributes to the database: its entities and its migrations. Each service owns its
 * tables (no foreign keys across domains); apps list the bundles of the modules they load.
 * Migration class names end in a 13-digit timestamp (TypeORM convention) and are unique repo-wide.
 */
export interface SchemaBundle {
  name: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: Function[];
}

export function mergeBundles(bundles: readonly SchemaBundle[]): { entities: unknown[]; migrations: unknown[] } {
  const entities = new Set<unknown>();
  const migrations = new Set<unknown>();
  for (const b of bundles) {
    for (const e of b.entities as unknown[]) entities.add(e);
    for (const m of b.migrations) migrations.add(m);
  }
  return { entities: [...entities], migrations: [...migrations] };
}

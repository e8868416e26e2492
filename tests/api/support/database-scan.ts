import type { DataSource } from 'typeorm';

/**
 * Rows of every table of the test database that mention one of `needles` (case-insensitive), as `table: row` —
 * how the erasure specs prove an account left nothing behind. Throws when the database has `minTables` tables or
 * fewer, so a scan of the wrong (empty) database cannot pass.
 */
export async function rowsMentioning(db: DataSource, needles: string[], minTables = 0): Promise<string[]> {
  const tables: { table_name: string }[] = await db.query(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  if (tables.length <= minTables) throw new Error(`expected more than ${minTables} tables, found ${tables.length}`);
  const found: string[] = [];
  for (const { table_name } of tables) {
    const rows: { row: string }[] = await db.query(`SELECT r::text AS row FROM "${table_name}" r WHERE r::text ILIKE ANY($1)`, [needles.map((n) => `%${n}%`)]);
    for (const r of rows) found.push(`${table_name}: ${r.row.slice(0, 300)}`);
  }
  return found;
}

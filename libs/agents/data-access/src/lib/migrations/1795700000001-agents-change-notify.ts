import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every change of an agent row (visibility, sharing, learned version, feedback version, deletion) notifies
 * `gaia_agent_changed` with its id: the agents replicas drop what they cached of it at once.
 */
export class AgentsChangeNotify1795700000001 implements MigrationInterface {
  name = 'AgentsChangeNotify1795700000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION agents_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('gaia_agent_changed', OLD.id);
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER agent_changed AFTER UPDATE OR DELETE ON agent FOR EACH ROW EXECUTE FUNCTION agents_notify_change()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER agent_changed ON agent`);
    await q.query(`DROP FUNCTION agents_notify_change()`);
  }
}

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { IngestionModule, ingestionSchema } from '@gaia/ingestion/feature';
import { APP_CONFIG, type AppConfig } from '@gaia/shared/config';
import { syntheticCorpus, type TestApp } from '@gaia/testing';
import { signUp, startApi, type User } from './support/api-app';
import { inviteAndAccept, SmtpInbox, verifyEmail } from './support/smtp-inbox';
import { uploadDocuments } from './support/documents';
import { rowsMentioning } from './support/database-scan';

/** Every file under `dir` (path relative to it). */
function walk(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p, base) : [p.slice(base.length + 1)];
  });
}

/**
 * The privacy promise of deletion: a full account (agents with pairs, uploads and learned artifacts, an API key
 * with usage, a plan request, team rows as owner and as invitee, sessions) is deleted, and afterwards no table
 * and no stored file holds its id or email; another account is untouched; billing keeps anonymous totals.
 */
describe('account deletion removes the account and everything it owns', () => {
  let t: TestApp & { url: string };
  let inbox: SmtpInbox;
  let ana: User;
  let ben: User;
  let benAgent: string;
  const corpus = syntheticCorpus(80, 5);
  const tsv = Buffer.from(corpus.map((p) => `${p.source}\t${p.target}`).join('\n'));

  const storageDir = () => {
    const c = t.app.get<AppConfig>(APP_CONFIG);
    return c.FILE_STORAGE_DIR ?? join(c.DATA_DIR, 'files');
  };
  async function upload(u: User, name: string): Promise<string> {
    const res = await uploadDocuments(u, { src_lang: 'es', tgt_lang: 'xx', custom_prompt: `${name} agent` }, [{ name: `${name}.tsv`, data: tsv }]).expect(200);
    return res.body.model_id as string;
  }
  /** Rows of every table of the database that mention one of `needles` (case-insensitive), as `table: row`. */
  const mentions = (needles: string[]) => rowsMentioning(t.dataSource, needles, 20);
  function filesMentioning(needles: string[]): string[] {
    const dir = storageDir();
    return walk(dir).filter((f) => {
      const text = `${f}\n${readFileSync(join(dir, f)).toString('latin1')}`.toLowerCase();
      return needles.some((n) => text.includes(n.toLowerCase()));
    });
  }

  beforeAll(async () => {
    inbox = await SmtpInbox.start();
    t = await startApi({
      env: { SMTP_URL: inbox.url },
      ensure: [{ module: IngestionModule, schema: ingestionSchema }],
      gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }] },
    });
    ana = await signUp(t.url, 'ana');
    ben = await signUp(t.url, 'ben');
  });
  afterAll(async () => {
    await t?.close();
    await inbox?.close();
  });

  it('leaves no row and no file with the account id or email, keeps others and anonymous totals', async () => {
    // A full account: two agents learned from uploads, a key used to translate, a plan request, team rows both ways.
    const first = await upload(ana, 'first');
    const second = await upload(ana, 'second');
    benAgent = await upload(ben, 'ben');
    await t.drain();
    const key = (await ana.agent.post('/api/api-keys/create/').set('X-CSRF-Token', ana.csrf).send({ name: 'ci' }).expect(200)).body.api_key as string;
    await request(t.url)
      .post('/api/translate/')
      .set('X-API-Key', key)
      .send({ text: corpus[0].source, model_id: first, src_lang: 'es', tgt_lang: 'xx', stream: false })
      .expect(200);
    await ana.agent.post('/api/plans/request').set('X-CSRF-Token', ana.csrf).send({ plan: 'starter' }).expect(200);
    await verifyEmail(t.url, inbox, ben);
    await inviteAndAccept(t.url, inbox, ana, ben);
    await ben.agent.post('/api/team/members').set('X-CSRF-Token', ben.csrf).send({ name: 'Ana', email: ana.email }).expect(201);
    await t.drain();
    const needles = [ana.uid, ana.email];
    expect((await mentions(needles)).length).toBeGreaterThan(5);
    expect(filesMentioning([first, second]).length).toBeGreaterThan(0);

    await ana.agent.post('/api/account/delete').set('X-CSRF-Token', ana.csrf).send({ email: 'someone-else@example.org' }).expect(400);
    await ana.agent.post('/api/account/delete').set('X-CSRF-Token', ana.csrf).send({ email: ana.email.toUpperCase() }).expect(200);
    await t.drain();

    expect(await mentions(needles)).toEqual([]);
    // Nothing stored for the account's agents either (uploads, datasets, pairs, artifacts), nor naming the account.
    expect(filesMentioning([...needles, first, second])).toEqual([]);
    expect(await mentions([first, second])).toEqual([]);

    // The session and the key are gone.
    await ana.agent.get('/api/account').expect(401);
    await request(t.url)
      .post('/api/translate/')
      .set('X-API-Key', key)
      .send({ text: 'hola', model_id: benAgent, src_lang: 'es', tgt_lang: 'xx', stream: false })
      .expect(401);
    // Ben is untouched: his agent, account and files; his team no longer lists Ana.
    expect((await ben.agent.get(`/api/agents/${benAgent}`).expect(200)).body.processing_status).toBe('COMPLETED');
    expect(filesMentioning([benAgent]).length).toBeGreaterThan(0);
    expect((await ben.agent.get('/api/team').expect(200)).body.members).toEqual([]);
    // Billing keeps only anonymous totals of the deleted account's usage.
    const [totals] = await t.dataSource.query(`SELECT sum(requests)::int AS requests, sum(words)::int AS words FROM billing_anonymous_usage`);
    expect(totals.requests).toBe(1);
    expect(totals.words).toBeGreaterThan(0);
  });
});

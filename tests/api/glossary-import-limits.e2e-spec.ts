import { FIELD_MAX_LENGTH } from '@gaia/contracts';
import type { TestApp } from '@gaia/testing';
import { signUp, startApi, type User } from './support/api-app';
import { createAgent } from './support/agents';

/**
 * POST /api/agents/:id/glossary/import with files built to make the TBX reader work hard: an element that is
 * never closed is refused with a 400 naming it (the reader does not search the rest of the file again from every
 * opening tag), whatever the file's size up to its limit.
 */
describe('glossary import: malformed and adversarial TBX files', () => {
  let t: TestApp & { url: string };
  let owner: User;
  let agentId: string;

  const importTbx = (glossary_file: string) =>
    owner.agent.post(`/api/agents/${agentId}/glossary/import`).set('X-CSRF-Token', owner.csrf).send({ format: 'tbx', glossary_file });

  beforeAll(async () => {
    t = await startApi();
    owner = await signUp(t.url, 'tbx-owner');
    agentId = (await createAgent(t.app, { ownerId: owner.uid, srcLang: 'es', tgtLang: 'qu' })).id;
  });
  afterAll(() => t?.close());

  it('refuses an entry, a language section, a term or a CDATA section that is never closed, naming it', async () => {
    const es = '<langSet xml:lang="es"><term>casa</term></langSet>';
    const qu = '<langSet xml:lang="qu"><term>wasi</term></langSet>';
    const cases: Array<[string, string]> = [
      [`<tbx><termEntry>${es}${qu}</tbx>`, 'Entry 1: <termEntry> is not closed.'],
      [`<tbx><termEntry>${es}<langSet xml:lang="qu"><term>wasi</term></termEntry></tbx>`, 'Entry 1: <langSet> is not closed.'],
      [`<tbx><termEntry>${es}<langSet xml:lang="qu"><term>wasi</langSet></termEntry></tbx>`, 'Entry 1: <term> is not closed.'],
      [`<tbx><termEntry>${es}<langSet xml:lang="qu"><term><![CDATA[wasi</term></langSet></termEntry></tbx>`, 'Entry 1: a CDATA section is not closed.'],
    ];
    for (const [file, error] of cases) expect((await importTbx(file).expect(400)).body).toEqual({ error });
    expect((await importTbx(`<tbx><termEntry>${es}${qu}</termEntry></tbx>`).expect(200)).body).toEqual({ added: 1, updated: 0, total: 1 });
  });

  it('answers a file of unclosed opening tags as long as the limit allows with a 400, between entries or inside a term', async () => {
    const filled = (before: string, tag: string, after: string) =>
      `${before}${tag.repeat(Math.floor((FIELD_MAX_LENGTH.glossary_file - before.length - after.length) / tag.length))}${after}`;
    for (const tag of ['<termEntry ', '<langSet ', '<langSec>', '<term>', '<note ', '<![CDATA[', '<<']) {
      expect((await importTbx(filled('<tbx><termEntry>', tag, '</termEntry></tbx>'))).status).toBe(400);
      expect((await importTbx(filled('<tbx><termEntry><langSet xml:lang="es"><term>', tag, '</term></langSet></termEntry></tbx>'))).status).toBe(400);
    }
    expect((await importTbx(filled('<tbx>', '<termEntry ', '</tbx>')).expect(400)).body).toEqual({ error: 'Entry 1: <termEntry> is not closed.' });
  });
});

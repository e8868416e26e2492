import type { AgentEntity } from '@gaia/agents/data-access';
import { mergeDocumentSource } from './agent.mapper';
import { applyPatch } from './edit-agent/edit-agent.use-case';
import { validateInvite } from './team/team.use-case';

const base = { srcLang: 'es', tgtLang: 'qu', customPrompt: 'Quechua helper', coreMemory: 'notes', engine: 'builtin' } as AgentEntity;

describe('edit agent (spec §5: languages and description required)', () => {
  it('lower-cases languages and keeps only real changes', () => {
    expect(applyPatch(base, { src_lang: ' ES ', tgt_lang: 'GN', core_memory: 'notes' })).toEqual({ tgtLang: 'gn' });
  });
  it.each([{ src_lang: '  ' }, { tgt_lang: '' }, { custom_prompt: '   ' }])('rejects a blank required field %j', (patch) => {
    expect(() => applyPatch(base, patch)).toThrow('Please fill in all required fields');
  });
  it('allows clearing the optional owner notes', () => {
    expect(applyPatch(base, { core_memory: '' })).toEqual({ coreMemory: '' });
  });
});

describe('team invite validation (spec §5)', () => {
  it.each([
    ['', 'a@b.co', 'Please fill in all fields.'],
    ['Ana', '  ', 'Please fill in all fields.'],
    ['Ana', 'not-an-email', 'Please enter a valid email address.'],
    ['Ana', 'a@b', 'Please enter a valid email address.'],
    ['Ana', 'a b@c.de', 'Please enter a valid email address.'],
  ])('%j %j → %s', (name, email, message) => {
    expect(() => validateInvite(name, email)).toThrow(message);
  });
  it('trims the name and lower-cases the email', () => {
    expect(validateInvite(' Ana Quispe ', ' Ana@Example.PE ')).toEqual({ name: 'Ana Quispe', email: 'ana@example.pe' });
  });
});

describe('document_source', () => {
  it('joins file names in upload order without duplicates', () => {
    expect(mergeDocumentSource(null, [])).toBeNull();
    expect(mergeDocumentSource(null, ['a.json', 'b.pdf'])).toBe('a.json, b.pdf');
    expect(mergeDocumentSource('a.json, b.pdf', ['b.pdf', 'c.txt'])).toBe('a.json, b.pdf, c.txt');
  });
});

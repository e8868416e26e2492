import type { AgentEntity } from '@gaia/agents/data-access';
import { isDomainError } from '@gaia/shared/kernel';
import { authorize, roleOf, type AgentNeed, type Viewer } from './agent-policy';

const agent = (over: Partial<AgentEntity> = {}): AgentEntity => ({
  id: 'a1',
  ownerId: 'owner',
  ownerEmail: 'owner@x.org',
  srcLang: 'es',
  tgtLang: 'qu',
  customPrompt: 'd',
  coreMemory: '',
  learnedMemory: '',
  public: false,
  sharedWithEmails: ['ed@x.org'],
  documentSource: null,
  processingTaskId: null,
  processingStatus: null,
  processingError: null,
  documentCount: 0,
  textBlocksExtracted: 0,
  pairCount: 0,
  engine: 'builtin',
  artifactVersion: null,
  artifactKey: null,
  version: 1,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  deletedAt: null,
  ...over,
});

const viewers: Record<string, Viewer | null> = {
  owner: { uid: 'owner', email: 'owner@x.org' },
  editor: { uid: 'ed-uid', email: 'Ed@X.org ' },
  stranger: { uid: 'someone', email: 'someone@x.org' },
  anonymous: null,
};

function outcome(a: AgentEntity, who: string, need: AgentNeed): string {
  try {
    return authorize(a, viewers[who], need).role;
  } catch (e) {
    if (!isDomainError(e)) throw e;
    return String(e.status);
  }
}

describe('agent permissions (spec §6)', () => {
  // [viewer, need, private agent, public agent]
  const matrix: [string, AgentNeed, string, string][] = [
    ['owner', 'read', 'owner', 'owner'],
    ['owner', 'edit', 'owner', 'owner'],
    ['owner', 'owner', 'owner', 'owner'],
    ['editor', 'read', 'editor', 'editor'],
    ['editor', 'edit', 'editor', 'editor'],
    ['editor', 'owner', '403', '403'],
    ['stranger', 'read', '404', 'reader'],
    ['stranger', 'edit', '404', '403'],
    ['stranger', 'owner', '404', '403'],
    ['anonymous', 'read', '404', 'reader'],
    ['anonymous', 'edit', '404', '403'],
    ['anonymous', 'owner', '404', '403'],
  ];
  it.each(matrix)('%s needing %s: private → %s, public → %s', (who, need, priv, pub) => {
    expect(outcome(agent({ public: false }), who, need)).toBe(priv);
    expect(outcome(agent({ public: true }), who, need)).toBe(pub);
  });

  it('hides deleted and unknown agents from everyone with "Model not found."', () => {
    for (const who of Object.keys(viewers)) expect(outcome(agent({ deletedAt: new Date(), public: true }), who, 'read')).toBe('404');
    expect(() => authorize(null, viewers['owner'], 'read')).toThrow('Model not found.');
  });

  it('says who may do what to an editor asking for an owner action', () => {
    expect(() => authorize(agent(), viewers['editor'], 'owner', 'delete this agent')).toThrow('Only the owner can delete this agent.');
  });

  it('matches editor emails case-insensitively and never with an empty email', () => {
    expect(roleOf(agent(), { uid: 'x', email: 'ED@x.ORG' })).toBe('editor');
    expect(roleOf(agent({ sharedWithEmails: [''] }), { uid: 'x', email: '' })).toBeNull();
  });
});

/**
 * Behaviour every RetrievalIndexPort on OpenSearch must have. Run against the wire double
 * (opensearch-retrieval.adapter.spec.ts) and, when OPENSEARCH_URL is set, against a real cluster
 * (opensearch-retrieval.contract.integration-spec.ts).
 */
import type { RetrievalIndexPort } from '../../retrieval-index.port';

export interface ContractTarget {
  /** A fresh, empty index namespace (each call): agents' pairs go to es→qu, agent "carol" to en→ay. */
  create(): Promise<RetrievalIndexPort>;
  cleanup(): Promise<void>;
}

export const CONTRACT_DIMENSION = 4;

export const CONTRACT_LANGUAGES: Record<string, { source: string; target: string }> = {
  alice: { source: 'es', target: 'qu' },
  bob: { source: 'es', target: 'qu' },
  carol: { source: 'en', target: 'ay' },
};

export const CONTRACT_PAIRS = [
  { id: 'p1', source: 'La casa es grande', target: 'Wasiqa hatunmi', vector: [1, 0, 0, 0] },
  { id: 'p2', source: 'Vamos a la casa de mi madre', target: 'Mamaypa wasinman risun', vector: [0.9, 0.1, 0, 0] },
  { id: 'p3', source: 'El agua está fría', target: 'Yakuqa chiri', vector: [0, 1, 0, 0] },
  { id: 'p4', source: 'Los niños juegan en el río', target: 'Wawakuna mayupi pukllanku', vector: [0, 0, 1, 0] },
];

export function describeRetrievalContract(label: string, target: () => ContractTarget): void {
  describe(`RetrievalIndexPort contract: ${label}`, () => {
    let t: ContractTarget;
    let index: RetrievalIndexPort;

    beforeEach(async () => {
      t = target();
      index = await t.create();
      await index.upsert('alice', CONTRACT_PAIRS);
    });

    afterEach(async () => {
      await t.cleanup();
    });

    it('finds pairs by source words (BM25) and reports the matched terms', async () => {
      const hits = await index.search('alice', 'casa grande', 5);
      expect(hits[0]).toMatchObject({ id: 'p1', source: 'La casa es grande', target: 'Wasiqa hatunmi' });
      expect(hits[0].matchedTerms).toEqual(['casa', 'grande']);
      expect(hits[0].score).toBeGreaterThan(0);
      expect(hits.map((h) => h.id)).toContain('p2');
      expect(hits.map((h) => h.id)).not.toContain('p3');
      expect(hits.map((h) => h.id)).not.toContain('p4');
    });

    it('searches the target side when asked', async () => {
      const hits = await index.search('alice', 'yakuqa', 5, { side: 'target' });
      expect(hits[0].id).toBe('p3');
      expect(hits[0].matchedTerms).toEqual(['yakuqa']);
      expect(await index.search('alice', 'yakuqa', 5)).toEqual([]);
    });

    it('matches inflected forms through the character n-gram sub-field', async () => {
      const hits = await index.search('alice', 'wasinmanta', 5, { side: 'target' });
      expect(hits[0].id).toBe('p2');
      expect(hits.map((h) => h.id)).toContain('p1');
      expect(hits[0].matchedTerms).toEqual([]);
    });

    it('never returns another agent’s pairs', async () => {
      await index.upsert('bob', [{ id: 'b1', source: 'La casa es grande', target: 'Hatun wasi', vector: [1, 0, 0, 0] }]);
      const alice = await index.search('alice', 'casa grande', 10);
      const bob = await index.search('bob', 'casa grande', 10);
      expect(alice.map((h) => h.id).sort()).toEqual(['p1', 'p2']);
      expect(bob.map((h) => h.id)).toEqual(['b1']);
      const bobHybrid = await index.search('bob', 'casa', 10, { vector: [0, 1, 0, 0] });
      expect(bobHybrid.map((h) => h.id)).toEqual(['b1']);
      // The agent filter runs in OpenSearch (not after the top k): another agent's better matches must
      // not crowd this agent's out of a small k.
      await index.upsert('bob', [
        { id: 'b2', source: 'casa grande, casa grande, casa grande', target: 'hatun wasi', vector: [0, 1, 0, 0] },
        { id: 'b3', source: 'casa grande casa', target: 'hatun wasi', vector: [0, 1, 0, 0] },
      ]);
      expect((await index.search('alice', 'casa grande', 1)).map((h) => h.id)).toEqual(['p1']);
      expect((await index.search('alice', 'casa grande', 1, { vector: [0, 1, 0, 0] })).map((h) => h.id)).toEqual(['p1']);
    });

    it('upsert replaces a pair with the same id', async () => {
      await index.upsert('alice', [{ id: 'p3', source: 'El agua está fría', target: 'Yakuqa chiri chiri', vector: [0, 1, 0, 0] }]);
      const hits = await index.search('alice', 'agua', 10);
      expect(hits).toHaveLength(1);
      expect(hits[0]).toMatchObject({ id: 'p3', target: 'Yakuqa chiri chiri' });
    });

    it('remove deletes only the given pairs', async () => {
      await index.remove('alice', ['p3']);
      expect(await index.search('alice', 'agua', 10)).toEqual([]);
      expect((await index.search('alice', 'río', 10)).map((h) => h.id)).toEqual(['p4']);
    });

    it('dropAgent deletes every pair of the agent and nothing else', async () => {
      await index.upsert('bob', [{ id: 'b1', source: 'La casa es grande', target: 'Hatun wasi' }]);
      await index.dropAgent('alice');
      expect(await index.search('alice', 'casa', 10)).toEqual([]);
      expect(await index.search('alice', 'casa', 10, { vector: [1, 0, 0, 0] })).toEqual([]);
      expect((await index.search('bob', 'casa', 10)).map((h) => h.id)).toEqual(['b1']);
    });

    it('combines BM25 and k-NN scores in a hybrid query', async () => {
      const hits = await index.search('alice', 'río', 4, { vector: [0, 1, 0, 0] });
      // p4 matches the words, p3 is the nearest vector: both must lead, the lexical match weighing more.
      expect(hits.slice(0, 2).map((h) => h.id)).toEqual(['p4', 'p3']);
      expect(hits[0].matchedTerms).toEqual(['río']);
      expect(hits[1].matchedTerms).toEqual([]);
    });

    it('answers an empty list for an agent whose language pair has no index yet', async () => {
      expect(await index.search('carol', 'house', 5)).toEqual([]);
      expect(await index.search('carol', 'house', 5, { vector: [1, 0, 0, 0] })).toEqual([]);
      await expect(index.dropAgent('carol')).resolves.toBeUndefined();
    });

    it('rejects vectors of the wrong dimension', async () => {
      await expect(index.upsert('alice', [{ id: 'bad', source: 'x', target: 'y', vector: [1, 0] }])).rejects.toThrow(/dimension/);
      await expect(index.search('alice', 'casa', 5, { vector: [1, 0] })).rejects.toThrow(/dimension/);
    });
  });
}

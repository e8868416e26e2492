import { HybridIndex } from '@gaia/engine';
import type { FileStorage } from '@gaia/shared/storage';
import type { IndexedPair, RetrievalHit, RetrievalIndexPort, RetrievalSearchOptions } from '../retrieval-index.port';
import { decodeAgentArtifacts } from './agent-artifacts.codec';

/**
 * The embedded backend of the retrieval port: one engine `HybridIndex` per agent (BM25 on words and
 * character n-grams + corpus-learned vectors, fused), persisted in file storage and kept in an LRU.
 * A freshly learned agent's index is not stored twice: `retrieval/<agent>/index.ref` names the learned
 * artifact whose index part is read; an incremental change writes the agent's own `index.bin`.
 */
export class EmbeddedRetrievalIndex implements RetrievalIndexPort {
  private readonly cache = new Map<string, HybridIndex>();
  private readonly loading = new Map<string, Promise<HybridIndex>>();

  constructor(
    private readonly storage: FileStorage,
    private readonly maxAgents = 32,
  ) {}

  private key(agentId: string): string {
    return `retrieval/${agentId}/index.bin`;
  }

  private refKey(agentId: string): string {
    return `retrieval/${agentId}/index.ref`;
  }

  private async read(agentId: string): Promise<HybridIndex> {
    if (await this.storage.exists(this.key(agentId))) return HybridIndex.deserialize(await this.storage.get(this.key(agentId)));
    if (await this.storage.exists(this.refKey(agentId))) {
      const artifact = Buffer.from(await this.storage.get(this.refKey(agentId))).toString('utf8');
      if (await this.storage.exists(artifact)) return HybridIndex.deserialize(decodeAgentArtifacts(await this.storage.get(artifact)).index);
    }
    return new HybridIndex();
  }

  private async open(agentId: string): Promise<HybridIndex> {
    const hit = this.cache.get(agentId);
    if (hit) {
      this.cache.delete(agentId);
      this.cache.set(agentId, hit);
      return hit;
    }
    let p = this.loading.get(agentId);
    if (!p) {
      p = (async () => {
        const idx = await this.read(agentId);
        this.cache.set(agentId, idx);
        while (this.cache.size > this.maxAgents) this.cache.delete(this.cache.keys().next().value as string);
        return idx;
      })().finally(() => this.loading.delete(agentId));
      this.loading.set(agentId, p);
    }
    return p;
  }

  /** Adopts the index of a freshly learned artifact (stored once, in the artifact) in place of the agent's own. */
  async adoptArtifact(agentId: string, artifactKey: string): Promise<void> {
    await this.storage.put(this.refKey(agentId), Buffer.from(artifactKey, 'utf8'));
    await this.storage.delete(this.key(agentId));
    this.cache.delete(agentId);
  }

  async upsert(agentId: string, pairs: IndexedPair[]): Promise<void> {
    const idx = await this.open(agentId);
    idx.remove(pairs.map((p) => p.id).filter((id) => idx.has(id)));
    idx.add(pairs.map(({ id, source, target }) => ({ id, source, target })));
    await this.storage.put(this.key(agentId), idx.serialize());
  }

  async remove(agentId: string, pairIds: string[]): Promise<void> {
    const idx = await this.open(agentId);
    idx.remove(pairIds.filter((id) => idx.has(id)));
    await this.storage.put(this.key(agentId), idx.serialize());
  }

  async dropAgent(agentId: string): Promise<void> {
    this.cache.delete(agentId);
    await this.storage.delete(`retrieval/${agentId}/`);
  }

  async search(agentId: string, query: string, k: number, opts: RetrievalSearchOptions = {}): Promise<RetrievalHit[]> {
    const idx = await this.open(agentId);
    return idx.search(query, k, { side: opts.side ?? 'source' });
  }
}

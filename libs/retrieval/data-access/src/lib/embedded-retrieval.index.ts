import { HybridIndex } from '@gaia/engine';
import type { FileStorage } from '@gaia/shared/storage';
import type { IndexedPair, RetrievalHit, RetrievalIndexPort, RetrievalSearchOptions } from '../retrieval-index.port';

/**
 * The embedded backend of the retrieval port: one engine `HybridIndex` per agent (BM25 on words and
 * character n-grams + corpus-learned vectors, fused), persisted in file storage and kept in an LRU.
 */
export class EmbeddedRetrievalIndex implements RetrievalIndexPort {
  private readonly cache = new Map<string, HybridIndex>();
  private readonly loading = new Map<string, Promise<HybridIndex>>();

  constructor(private readonly storage: FileStorage, private readonly maxAgents = 32) {}

  private key(agentId: string): string {
    return `retrieval/${agentId}/index.bin`;
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
        const idx = (await this.storage.exists(this.key(agentId))) ? HybridIndex.deserialize(await this.storage.get(this.key(agentId))) : new HybridIndex();
        this.cache.set(agentId, idx);
        while (this.cache.size > this.maxAgents) this.cache.delete(this.cache.keys().next().value as string);
        return idx;
      })().finally(() => this.loading.delete(agentId));
      this.loading.set(agentId, p);
    }
    return p;
  }

  /** Adopts a freshly built index (the learning job builds it once for the artifact and for search). */
  async replace(agentId: string, bytes: Uint8Array): Promise<void> {
    await this.storage.put(this.key(agentId), bytes);
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

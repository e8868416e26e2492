import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { INGESTION_MAX_FILE_BYTES, INGESTION_MAX_FILES_PER_UPLOAD, ingestionUploadKey } from '@gaia/contracts';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { OPERATOR_POLL_MS, OPERATOR_WAIT_MS, SEED_SOURCE } from '../operator.tokens';
import { SystemAccountService } from '../system-account.service';
import { waitUntil } from '../wait-until';
import { planSeed, type SeedGroup } from './seed-plan';
import type { SeedSourcePort } from './seed-source.port';

export interface SeededAgent {
  folder: string;
  agent_id: string;
  src_lang: string;
  tgt_lang: string;
  status: 'COMPLETED' | 'FAILED';
  pair_count: number;
  public: boolean;
  message: string;
}

export interface SeedReport {
  owner: string;
  agents: SeededAgent[];
  skipped: { path: string; reason: string }[];
}

/**
 * `gaia seed <folder>`: public agents owned by the system account, one per language-pair folder, built
 * through the normal ingestion path (originals in FILE_STORAGE → ingestion task → retrieval learns) and
 * published once learned. Seeding the same files again answers the same agents (idempotency key = content hash).
 */
@Injectable()
export class SeedUseCase {
  constructor(
    @Inject(SEED_SOURCE) private readonly source: SeedSourcePort,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    private readonly system: SystemAccountService,
  ) {}

  async seed(folder: string): Promise<SeedReport> {
    const { root, files } = await this.source.list(folder);
    const plan = planSeed(root, files, { maxFiles: INGESTION_MAX_FILES_PER_UPLOAD, maxFileBytes: INGESTION_MAX_FILE_BYTES });
    const owner = await this.system.ensure();
    const agents: SeededAgent[] = [];
    for (const group of plan.groups) agents.push(await this.build(folder, group, owner.id));
    return { owner: owner.email, agents, skipped: plan.skipped };
  }

  private async build(folder: string, g: SeedGroup, ownerId: string): Promise<SeededAgent> {
    const contents = await Promise.all(g.files.map((f) => this.source.read(folder, f)));
    const hash = createHash('sha256');
    g.files.forEach((f, i) => hash.update(`${f.name}\0${contents[i].length}\0`).update(contents[i]));
    const digest = hash.digest('hex');
    // Same files → same upload keys and the same task: a repeated seed stores nothing twice.
    const uploadId = `seed-${digest.slice(0, 32)}`;
    const refs = [];
    for (let i = 0; i < g.files.length; i++) {
      const key = `${ingestionUploadKey(uploadId, i)}-${g.files[i].name.replace(/[^\p{L}\p{N}._-]+/gu, '_')}`;
      await this.storage.put(key, contents[i]);
      refs.push({ key, filename: g.files[i].name, size: contents[i].length });
    }
    const name = g.dir || folder;
    const started = await this.rpc.call('ingestion.start-processing.v1', {
      mode: 'create',
      ownerId,
      srcLang: g.srcLang,
      tgtLang: g.tgtLang,
      customPrompt: `Public ${g.srcLang}→${g.tgtLang} translator, learned from ${g.files.map((f) => f.name).join(', ')}.`,
      files: refs,
      idempotencyKey: `seed:${digest}`,
    });
    const { task } = await waitUntil(
      () => this.rpc.call('ingestion.get-task.v1', { taskId: started.task_id }),
      (t) => t.task.status !== 'PROCESSING',
      {
        intervalMs: OPERATOR_POLL_MS,
        timeoutMs: OPERATOR_WAIT_MS,
        what: `seed task of ${name}`,
      },
    );
    const base = { folder: name, agent_id: started.model_id, src_lang: g.srcLang, tgt_lang: g.tgtLang };
    if (task.status === 'FAILED') return { ...base, status: 'FAILED', pair_count: 0, public: false, message: task.message };
    // The agents service applies the learned result from the same event; wait for it before publishing.
    await waitUntil(
      () => this.rpc.call('agents.resolve.v1', { agentId: started.model_id }),
      (r) => r.agent?.processing_status === 'COMPLETED',
      {
        intervalMs: OPERATOR_POLL_MS,
        timeoutMs: OPERATOR_WAIT_MS,
        what: `agent ${started.model_id}`,
      },
    );
    const agent = await this.rpc.call('agents.set-visibility.v1', { agentId: started.model_id, viewer: { uid: ownerId, email: '' }, public: true });
    return { ...base, status: 'COMPLETED', pair_count: agent.pair_count, public: agent.public, message: task.message };
  }
}

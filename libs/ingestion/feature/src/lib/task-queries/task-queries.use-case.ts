import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { zipSync, type Zippable } from 'fflate';
import type { CorrectionDto, IngestionTaskDto } from '@gaia/contracts';
import {
  FILE_REPOSITORY,
  type FileRepositoryPort,
  PAIR_REPOSITORY,
  type PairRepositoryPort,
  TASK_REPOSITORY,
  type TaskRepositoryPort,
} from '@gaia/ingestion/data-access';
import { writeTmx } from '@gaia/ingestion/parsers';
import { DATA_SOURCE } from '@gaia/shared/database';
import { DomainError } from '@gaia/shared/kernel';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { RPC_CLIENT, readConsistentPages, type RpcClient } from '@gaia/shared/messaging';
import { storageKeys } from '../ingestion.tokens';
import { toTaskDto } from '../task-dto';

@Injectable()
export class GetTaskUseCase {
  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(TASK_REPOSITORY) private readonly tasks: TaskRepositoryPort,
  ) {}

  async execute(taskId: string): Promise<{ task: IngestionTaskDto; ownerId: string; agentId: string }> {
    const t = await this.tasks.find(this.ds.manager, taskId);
    if (!t) throw DomainError.notFound('Task not found.', 'task_not_found');
    return { task: toTaskDto(t), ownerId: t.ownerId, agentId: t.agentId };
  }
}

@Injectable()
export class AgentDataUseCase {
  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(TASK_REPOSITORY) private readonly tasks: TaskRepositoryPort,
    @Inject(FILE_REPOSITORY) private readonly files: FileRepositoryPort,
    @Inject(PAIR_REPOSITORY) private readonly pairs: PairRepositoryPort,
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
  ) {}

  /** dataset_{id}_files.zip: every original (uploaded order), the normalised pairs as JSONL and TMX, the corrections (JSONL, without their authors). */
  async prepareDownload(agentId: string): Promise<{ key: string; filename: string; size: number; pairCount: number; fileCount: number }> {
    const em = this.ds.manager;
    const tasks = await this.tasks.listForAgent(em, agentId);
    if (!tasks.length) throw DomainError.notFound('Model not found.', 'model_not_found');
    const files = await this.files.listForAgent(em, agentId);
    const zip: Zippable = {};
    const used = new Set<string>();
    for (const f of files) {
      if (!(await this.storage.exists(f.storageKey))) continue;
      let name = `originals/${f.filename.replace(/[\\/]/g, '_')}`;
      for (let n = 2; used.has(name); n++) name = `originals/${n}-${f.filename.replace(/[\\/]/g, '_')}`;
      used.add(name);
      zip[name] = [await this.storage.get(f.storageKey), { level: 6 }];
    }
    const pairs: Array<{ source: string; target: string }> = [];
    const lines: string[] = [];
    for await (const p of this.pairs.iterate(em, agentId)) {
      pairs.push({ source: p.source, target: p.target });
      lines.push(JSON.stringify({ source: p.source, target: p.target }));
    }
    const last = tasks[tasks.length - 1];
    zip['pairs.jsonl'] = new TextEncoder().encode(lines.length ? lines.join('\n') + '\n' : '');
    zip['pairs.tmx'] = new TextEncoder().encode(writeTmx(pairs, last.srcLang, last.tgtLang));
    const corrections = (await this.allCorrections(agentId)).reverse(); // pages come newest first: the file lists them oldest first
    // The dataset of a public agent is anyone's download: the corrections' texts, never who wrote them (no email, no uid).
    const correctionLines = corrections.map((c) =>
      JSON.stringify({ source: c.source, translation: c.translation, corrected: c.corrected, created_at: c.created_at }),
    );
    if (correctionLines.length) zip['corrections.jsonl'] = new TextEncoder().encode(correctionLines.join('\n') + '\n');
    const bytes = zipSync(zip, { level: 6 });
    const key = storageKeys.download(agentId);
    await this.storage.put(key, bytes);
    return { key, filename: `dataset_${agentId}_files.zip`, size: bytes.length, pairCount: pairs.length, fileCount: used.size };
  }

  /**
   * Every correction of the agent, page by page (each well below NATS's 1 MiB per message), of one consistent feedback
   * version (readConsistentPages). A read that keeps seeing changes fails the download (409, try again) rather than
   * leave corrections.jsonl out.
   */
  private async allCorrections(agentId: string): Promise<CorrectionDto[]> {
    const pages = await readConsistentPages((cursor) => this.rpc.call('agents.corrections-export-page.v1', { agentId, cursor }), {
      conflict: () => DomainError.conflict('The corrections of this agent changed during the download. Please try again.'),
    });
    return pages.flatMap((p) => p.corrections);
  }

  /** Deletes the rows in the caller's transaction, then the stored files (a repeat finds nothing left). */
  async deleteRows(em: EntityManager, agentId: string): Promise<boolean> {
    const files = await this.files.listForAgent(em, agentId);
    await this.pairs.deleteForAgent(em, agentId);
    const deleted = (await this.tasks.deleteForAgent(em, agentId)) > 0;
    for (const f of files) await this.storage.delete(f.storageKey).catch(() => undefined);
    await this.storage.delete(storageKeys.agentPrefix(agentId)).catch(() => undefined);
    return deleted;
  }
}

import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { CorrectionDto, IngestionTaskDto, RpcResponse } from '@gaia/contracts';
import {
  FILE_REPOSITORY,
  type FileRepositoryPort,
  PAIR_REPOSITORY,
  type PairRepositoryPort,
  type ProcessingTaskEntity,
  TASK_REPOSITORY,
  type TaskRepositoryPort,
  type UploadedFileEntity,
} from '@gaia/ingestion/data-access';
import { TMX_CLOSING, tmxOpening, tmxUnit } from '@gaia/ingestion/parsers';
import { DATA_SOURCE } from '@gaia/shared/database';
import { DomainError } from '@gaia/shared/kernel';
import { FILE_STORAGE, type FileStorage, isFileNotFound } from '@gaia/shared/storage';
import { RPC_CLIENT, readConsistentPages, type RpcClient } from '@gaia/shared/messaging';
import { storageKeys } from '../ingestion.tokens';
import { toTaskDto } from '../task-dto';
import { StreamingZip } from './streaming-zip';

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

export interface PreparedDownload {
  key: string;
  filename: string;
  size: number;
  pairCount: number;
  fileCount: number;
}
type DownloadMeta = Pick<PreparedDownload, 'size' | 'pairCount' | 'fileCount'>;
type CorrectionsPage = RpcResponse<'agents.corrections-export-page.v1'>;

/** Bump when what goes in the zip changes for the same data: every prepared zip is then rebuilt once. */
export const DATASET_ZIP_FORMAT = 1;
/** Hex characters of the fingerprint in a prepared zip's key. */
const FINGERPRINT_CHARS = 32;
/** DEFLATE level of the dataset zip. */
const ZIP_LEVEL = 6;

/**
 * What the dataset zip is built from, cheaply: the agent's tasks (status, stored pairs version and count, languages), its
 * uploaded files (storage key, name, status), its pair count and its feedback version (bumped by every correction change,
 * in the agents service). Pairs only change through a task, originals only through an upload: the same fingerprint is
 * the same zip.
 */
export function datasetFingerprint(tasks: ProcessingTaskEntity[], files: UploadedFileEntity[], pairCount: number, feedbackVersion: number): string {
  const data = {
    format: DATASET_ZIP_FORMAT,
    tasks: tasks.map((t) => [t.id, t.status, t.pairsVersion, t.pairCount, t.srcLang, t.tgtLang]),
    files: files.map((f) => [f.id, f.storageKey, f.filename, f.status]),
    pairCount,
    feedbackVersion,
  };
  return createHash('sha256').update(JSON.stringify(data)).digest('hex').slice(0, FINGERPRINT_CHARS);
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

  /** Builds in progress in this process, by agent: concurrent prepares of one agent share one build. */
  private readonly building = new Map<string, Promise<PreparedDownload>>();

  /**
   * dataset_{id}_files.zip: every original (uploaded order), the normalised pairs as JSONL and TMX, the corrections (JSONL,
   * without their authors). Built once per dataset fingerprint (datasetFingerprint) and answered from storage while the
   * dataset is unchanged (a public agent's dataset is anyone's download: reading every original and compressing them is
   * not redone per request); concurrent calls for one agent in this process share one build, and its error.
   */
  prepareDownload(agentId: string): Promise<PreparedDownload> {
    const inFlight = this.building.get(agentId);
    if (inFlight) return inFlight;
    const build = this.prepare(agentId).finally(() => this.building.delete(agentId));
    this.building.set(agentId, build);
    return build;
  }

  private async prepare(agentId: string): Promise<PreparedDownload> {
    const em = this.ds.manager;
    const dataset = await this.dataset(em, agentId);
    if (!dataset) throw DomainError.notFound('Model not found.', 'model_not_found');
    const { tasks, files, firstCorrections, fingerprint } = dataset;
    const key = storageKeys.download(agentId, fingerprint);
    const metaKey = storageKeys.downloadMeta(agentId, fingerprint);
    const filename = `dataset_${agentId}_files.zip`;
    const stored = await this.storedMeta(metaKey);
    if (stored && (await this.storage.exists(key))) return { key, filename, ...stored };
    const counts = { pairCount: 0, fileCount: 0 };
    const size = await this.storage.putStream(key, this.zipChunks(agentId, tasks[tasks.length - 1], files, firstCorrections, counts));
    const meta: DownloadMeta = { size, ...counts };
    await this.storage.put(metaKey, new TextEncoder().encode(JSON.stringify(meta)));
    const now = await this.dataset(em, agentId);
    // Deleted while it was built (agent deletion, account erasure): nothing of it is left behind.
    if (!now) {
      await this.storage.delete(storageKeys.downloadsPrefix(agentId)).catch(() => undefined);
      throw DomainError.notFound('Model not found.', 'model_not_found');
    }
    // The older zips of the agent are stale: only this one stays. Unless this one is stale itself (the dataset changed
    // while it was built): another replica may have written the newer zip already, which must stay; this one goes with
    // the next version's build.
    if (now.fingerprint === fingerprint) {
      for (const k of await this.storage.list(storageKeys.downloadsPrefix(agentId))) {
        if (k !== key && k !== metaKey) await this.storage.delete(k).catch(() => undefined);
      }
    }
    return { key, filename, ...meta };
  }

  /**
   * What the agent's zip is built from and its fingerprint (datasetFingerprint); null when the agent has no task
   * (unknown, or deleted).
   */
  private async dataset(
    em: EntityManager,
    agentId: string,
  ): Promise<{ tasks: ProcessingTaskEntity[]; files: UploadedFileEntity[]; firstCorrections: CorrectionsPage; fingerprint: string } | null> {
    const tasks = await this.tasks.listForAgent(em, agentId);
    if (!tasks.length) return null;
    const files = await this.files.listForAgent(em, agentId);
    const pairCount = await this.pairs.count(em, agentId);
    const firstCorrections = await this.correctionsPage(agentId, null);
    return { tasks, files, firstCorrections, fingerprint: datasetFingerprint(tasks, files, pairCount, firstCorrections.version) };
  }

  /** The meta of a prepared zip, or null when it was not written (the zip is then incomplete or absent). */
  private async storedMeta(metaKey: string): Promise<DownloadMeta | null> {
    try {
      return JSON.parse(new TextDecoder().decode(await this.storage.get(metaKey))) as DownloadMeta;
    } catch (e) {
      if (isFileNotFound(e)) return null;
      throw e;
    }
  }

  /**
   * The zip's bytes as they are compressed: each original streamed from storage, the pairs read page by page into
   * pairs.jsonl and pairs.tmx in one pass (the TMX waits compressed until the JSONL ends), then the corrections. Memory
   * stays near one page of pairs and the compressed TMX, whatever the size of the originals. The languages are the latest
   * task's; counts go into `counts`.
   */
  private async *zipChunks(
    agentId: string,
    { srcLang, tgtLang }: Pick<ProcessingTaskEntity, 'srcLang' | 'tgtLang'>,
    files: UploadedFileEntity[],
    firstCorrections: CorrectionsPage,
    counts: { pairCount: number; fileCount: number },
  ): AsyncGenerator<Uint8Array> {
    const zip = new StreamingZip(ZIP_LEVEL);
    const used = new Set<string>();
    for (const f of files) {
      const original = await this.storage.openRead(f.storageKey).catch((e: unknown) => {
        if (isFileNotFound(e)) return null;
        throw e;
      });
      if (!original) continue;
      let name = `originals/${f.filename.replace(/[\\/]/g, '_')}`;
      for (let n = 2; used.has(name); n++) name = `originals/${n}-${f.filename.replace(/[\\/]/g, '_')}`;
      used.add(name);
      const entry = zip.entry(name);
      for await (const chunk of original.stream as AsyncIterable<Uint8Array>) {
        entry.write(chunk);
        yield* zip.take();
      }
      entry.end();
      yield* zip.take();
    }
    counts.fileCount = used.size;

    const jsonl = zip.entry('pairs.jsonl');
    const tmx = zip.entry('pairs.tmx');
    tmx.write(tmxOpening(srcLang));
    for await (const p of this.pairs.iterate(this.ds.manager, agentId)) {
      counts.pairCount++;
      jsonl.write(JSON.stringify({ source: p.source, target: p.target }) + '\n');
      tmx.write(tmxUnit(p, srcLang, tgtLang));
      yield* zip.take();
    }
    tmx.write(TMX_CLOSING);
    jsonl.end();
    tmx.end();
    yield* zip.take();

    const corrections = (await this.allCorrections(agentId, firstCorrections)).reverse(); // pages come newest first: the file lists them oldest first
    if (corrections.length) {
      const entry = zip.entry('corrections.jsonl');
      // The dataset of a public agent is anyone's download: the corrections' texts, never who wrote them (no email, no uid).
      for (const c of corrections) {
        entry.write(JSON.stringify({ source: c.source, translation: c.translation, corrected: c.corrected, created_at: c.created_at }) + '\n');
      }
      entry.end();
    }
    zip.end();
    yield* zip.take();
  }

  private correctionsPage(agentId: string, cursor: string | null): Promise<CorrectionsPage> {
    return this.rpc.call('agents.corrections-export-page.v1', { agentId, cursor });
  }

  /**
   * Every correction of the agent, page by page (each well below NATS's 1 MiB per message), of one consistent feedback
   * version (readConsistentPages). A read that keeps seeing changes fails the download (409, try again) rather than
   * leave corrections.jsonl out.
   */
  private async allCorrections(agentId: string, first: CorrectionsPage): Promise<CorrectionDto[]> {
    // the first page read for the fingerprint starts the first read (the zip is then of the fingerprint's version)
    let prefetched: CorrectionsPage | null = first;
    const readPage = (cursor: string | null): Promise<CorrectionsPage> => {
      const page = cursor === null ? prefetched : null;
      prefetched = null;
      return page ? Promise.resolve(page) : this.correctionsPage(agentId, cursor);
    };
    const pages = await readConsistentPages(readPage, {
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

import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { DataSource } from 'typeorm';
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
import { isParseError, MAX_PAIRS_PER_AGENT, parseFile, type ParseResult } from '@gaia/ingestion/parsers';
import { DATA_SOURCE } from '@gaia/shared/database';
import { OUTBOX, type JobContext, type Outbox } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { storageKeys, VISION_EXTRACTOR, type VisionExtractorPort } from '../ingestion.tokens';
import { PARSE_END, TaskLifecycle } from '../task-lifecycle.service';

class PairLimitExceeded extends Error {}

/**
 * The durable job of a task. Each file is one transaction (pairs + file status + task progress + the
 * progress event), so a process killed at any point resumes at the first unfinished file and the agent
 * ends with exactly the pairs of an uninterrupted run (pairs are de-duplicated by hash per agent and
 * ordered by a per-agent sequence taken inside the same transaction).
 */
@Injectable()
export class ProcessTaskUseCase {
  private readonly logger = new Logger('Ingestion');

  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(OUTBOX) private readonly outbox: Outbox,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(TASK_REPOSITORY) private readonly tasks: TaskRepositoryPort,
    @Inject(FILE_REPOSITORY) private readonly files: FileRepositoryPort,
    @Inject(PAIR_REPOSITORY) private readonly pairs: PairRepositoryPort,
    private readonly lifecycle: TaskLifecycle,
    @Optional() @Inject(VISION_EXTRACTOR) private readonly vision?: VisionExtractorPort | null,
  ) {}

  async run(taskId: string, ctx?: Pick<JobContext, 'heartbeat' | 'signal'>): Promise<void> {
    const task = await this.tasks.find(this.ds.manager, taskId);
    if (!task || task.status !== 'PROCESSING') return;
    const files = await this.files.listForTask(this.ds.manager, taskId);
    const pending = files.filter((f) => f.status === 'pending');
    for (const f of pending) {
      if (ctx?.signal.aborted) throw new Error('shutting down');
      await this.processFile(task, f, files);
      await ctx?.heartbeat();
    }
    await this.finish(taskId);
  }

  /** Last resort when the job keeps failing (e.g. storage unreachable): the task fails instead of hanging. */
  async giveUp(taskId: string, reason: string): Promise<void> {
    await this.ds.transaction(async (em) => {
      const t = await this.tasks.find(em, taskId, true);
      if (!t || t.status !== 'PROCESSING') return;
      await this.lifecycle.finish(em, t, false, `Document processing failed: ${reason}`);
    });
  }

  /** Reads the original(s); a storage failure propagates so the job is retried (never a per-file error). */
  private async load(f: UploadedFileEntity, all: UploadedFileEntity[]): Promise<{ bytes: Uint8Array; companion?: { filename: string; bytes: Uint8Array } }> {
    const other = f.companionIdx !== null ? all.find((x) => x.idx === f.companionIdx) : undefined;
    return {
      bytes: await this.storage.get(f.storageKey),
      companion: other ? { filename: other.filename, bytes: await this.storage.get(other.storageKey) } : undefined,
    };
  }

  private async processFile(task: ProcessingTaskEntity, f: UploadedFileEntity, all: UploadedFileEntity[]): Promise<void> {
    const label = f.companionIdx !== null ? `${f.filename} + ${all.find((x) => x.idx === f.companionIdx)?.filename}` : f.filename;
    const halves = f.companionIdx !== null ? 2 : 1;
    let result: ParseResult | null = null;
    let error: string | null = null;
    const input = await this.load(f, all);
    try {
      result = await parseFile({
        filename: f.filename,
        bytes: input.bytes,
        companion: input.companion,
        srcLang: task.srcLang,
        tgtLang: task.tgtLang,
        vision: this.vision ?? undefined,
        maxPairs: MAX_PAIRS_PER_AGENT,
      });
    } catch (e) {
      if (!isParseError(e)) this.logger.warn(`task ${task.id} file ${f.filename}: ${(e as Error).stack ?? e}`);
      error = isParseError(e) ? e.message : `${f.filename}: the file could not be read (${(e as Error).message})`;
    }
    if (result) {
      try {
        await this.ds.transaction(async (em) => {
          const t = await this.tasks.find(em, task.id, true);
          const current = (await this.files.listForTask(em, task.id)).find((x) => x.idx === f.idx);
          if (!t || t.status !== 'PROCESSING' || current?.status !== 'pending') return; // already applied
          const added = await this.pairs.insertMany(em, task.agentId, task.id, f.idx, await this.pairs.nextOrd(em, task.agentId), result!.pairs);
          if ((await this.pairs.count(em, task.agentId)) > MAX_PAIRS_PER_AGENT) throw new PairLimitExceeded();
          await this.files.finish(em, f.id, {
            status: 'done',
            format: result!.format,
            pairsAdded: added,
            textBlocks: result!.pairs.length,
            pages: result!.stats.pages ?? 0,
            stats: result!.stats,
            warnings: result!.warnings,
          });
          if (f.companionIdx !== null) await this.files.finishCompanion(em, task.id, f.companionIdx, 'done');
          await this.lifecycle.fileHandled(em, t, {
            successfulFiles: t.successfulFiles + halves,
            textBlocksExtracted: t.textBlocksExtracted + result!.pairs.length,
            totalPages: t.totalPages + (result!.stats.pages ?? 0),
            message: `Processed ${label}: ${result!.pairs.length} sentence pairs${summary(result!)}`,
          });
        });
        return;
      } catch (e) {
        if (!(e instanceof PairLimitExceeded)) throw e;
        error = `${label}: the agent would have more than ${MAX_PAIRS_PER_AGENT.toLocaleString('en-US')} sentence pairs (the limit per agent)`;
      }
    }
    await this.ds.transaction(async (em) => {
      const t = await this.tasks.find(em, task.id, true);
      const current = (await this.files.listForTask(em, task.id)).find((x) => x.idx === f.idx);
      if (!t || t.status !== 'PROCESSING' || current?.status !== 'pending') return;
      await this.files.finish(em, f.id, { status: 'failed', error });
      if (f.companionIdx !== null) await this.files.finishCompanion(em, task.id, f.companionIdx, 'failed', error);
      await this.lifecycle.fileHandled(em, t, { errors: [...t.errors, { file: label, message: error! }], message: error! });
    });
  }

  /** One pass over the agent's pairs: the full snapshot and the pairs this task added, as JSONL. */
  private async writeSnapshots(agentId: string, taskId: string, keys: { all: string; added: string }): Promise<{ all: number; added: number }> {
    const all: string[] = [];
    const added: string[] = [];
    for await (const r of this.pairs.iterate(this.ds.manager, agentId)) {
      const line = JSON.stringify({ id: r.id, source: r.source, target: r.target });
      all.push(line);
      if (r.taskId === taskId) added.push(line);
    }
    const enc = (lines: string[]) => new TextEncoder().encode(lines.length ? lines.join('\n') + '\n' : '');
    await this.storage.put(keys.all, enc(all));
    await this.storage.put(keys.added, enc(added));
    return { all: all.length, added: added.length };
  }

  private async finish(taskId: string): Promise<void> {
    const task = await this.tasks.find(this.ds.manager, taskId);
    if (!task || task.status !== 'PROCESSING' || task.pairsVersion) return;
    let pairCount = 0;
    let addedCount = 0;
    const pairsKey = storageKeys.pairsSnapshot(task.agentId, task.id);
    const addedKey = storageKeys.addedPairs(task.agentId, task.id);
    if (task.successfulFiles > 0) {
      // Deterministic content: rewriting these files on a resumed run is harmless.
      const n = await this.writeSnapshots(task.agentId, task.id, { all: pairsKey, added: addedKey });
      pairCount = n.all;
      addedCount = n.added;
    }
    await this.ds.transaction(async (em) => {
      const t = await this.tasks.find(em, taskId, true);
      if (!t || t.status !== 'PROCESSING' || t.pairsVersion) return;
      if (t.successfulFiles === 0) {
        await this.lifecycle.finish(em, t, false, `No file could be processed: ${t.errors.map((e) => e.message).join('; ')}`);
        return;
      }
      // Pairs are stored; the agent is ready once retrieval has indexed them and learned the core memory.
      await this.lifecycle.update(em, t, {
        pairsVersion: t.id,
        pairCount,
        progress: PARSE_END,
        message: `Extracted ${t.textBlocksExtracted} sentence pairs from ${t.successfulFiles} of ${t.totalFiles} files; learning the agent…`,
      });
      await this.outbox.add(em, 'ingestion.pairs-stored.v1', {
        agentId: t.agentId,
        taskId: t.id,
        srcLang: t.srcLang,
        tgtLang: t.tgtLang,
        pairsKey,
        addedKey,
        pairCount,
        addedCount,
        version: t.id,
      });
    });
  }
}

function summary(r: ParseResult): string {
  const parts: string[] = [];
  if (r.stats.duplicates) parts.push(`${r.stats.duplicates} duplicate(s) removed`);
  if (r.stats.empty) parts.push(`${r.stats.empty} empty`);
  if (r.stats.oneSided) parts.push(`${r.stats.oneSided} one-sided`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

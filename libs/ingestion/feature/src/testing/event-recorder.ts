import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CorrectionDto, EventMap, RpcResponse } from '@gaia/contracts';
import { OnEvent, OnRpc, OUTBOX, type Outbox } from '@gaia/shared/messaging';

/**
 * Stand-in consumers for the other services in ingestion tests: real @OnEvent handlers (delivered
 * through the outbox/inbox like production) that record what they received. As "retrieval" it answers
 * pairs-stored with build-progress + agent-learned (or build-failed when `failLearning` is set; while `holdLearning` is set
 * it answers only once `releaseLearning` is called, so a task stays PROCESSING in between). As "agents" it
 * answers the dataset download's corrections (agents.corrections-export-page.v1): `corrections` (newest first, one page) at
 * `feedbackVersion` (none by default; a test that adds one bumps the version, as the agents service does).
 */
@Injectable()
export class IngestionEventRecorder {
  readonly started: EventMap['ingestion.task-started.v1'][] = [];
  readonly progress: EventMap['ingestion.task-progress.v1'][] = [];
  readonly stored: EventMap['ingestion.pairs-stored.v1'][] = [];
  readonly finished: EventMap['ingestion.task-finished.v1'][] = [];
  failLearning = false;
  holdLearning = false;
  private held: EventMap['ingestion.pairs-stored.v1'][] = [];
  corrections: CorrectionDto[] = [];
  feedbackVersion = 0;
  /** The corrections page fails (the agents service unavailable). */
  failCorrections = false;

  constructor(@Inject(OUTBOX) private readonly outbox: Outbox) {}

  @OnEvent('agents', 'ingestion.task-started.v1')
  onStarted(p: EventMap['ingestion.task-started.v1']): void {
    this.started.push(p);
  }

  @OnEvent('gateway', 'ingestion.task-progress.v1')
  onProgress(p: EventMap['ingestion.task-progress.v1']): void {
    this.progress.push(p);
  }

  @OnEvent('retrieval', 'ingestion.pairs-stored.v1')
  async onStored(p: EventMap['ingestion.pairs-stored.v1'], em: EntityManager): Promise<void> {
    this.stored.push(p);
    if (this.holdLearning) {
      this.held.push(p);
      return;
    }
    await this.answerStored(p, em);
  }

  /** Answers the pairs-stored events held while `holdLearning` was set, as retrieval would once learned. */
  async releaseLearning(em: EntityManager): Promise<void> {
    for (const p of this.held.splice(0)) await this.answerStored(p, em);
  }

  private async answerStored(p: EventMap['ingestion.pairs-stored.v1'], em: EntityManager): Promise<void> {
    const base = { agentId: p.agentId, taskId: p.taskId, version: p.version };
    await this.outbox.add(em, 'retrieval.build-progress.v1', { ...base, fraction: 0.5, message: 'Learning the core memory' });
    if (this.failLearning) {
      await this.outbox.add(em, 'retrieval.build-failed.v1', { ...base, message: 'Learning failed: not enough data' });
      return;
    }
    await this.outbox.add(em, 'retrieval.agent-learned.v1', {
      ...base,
      artifactKey: `artifacts/${p.agentId}/${p.version}`,
      learnedSummary: 'summary',
      pairCount: p.pairCount,
      stats: { srcVocab: 1, tgtVocab: 1, phrasePairs: 1, charRatio: 1, trainingMs: 1 },
      learnedAt: new Date().toISOString(),
    });
  }

  @OnEvent('agents', 'ingestion.task-finished.v1')
  onFinished(p: EventMap['ingestion.task-finished.v1']): void {
    this.finished.push(p);
  }
  @OnEvent('gateway', 'ingestion.task-finished.v1')
  onFinishedGateway(): void {}
  @OnEvent('agents', 'retrieval.agent-learned.v1')
  onLearnedAgents(): void {}
  @OnEvent('agents', 'retrieval.build-failed.v1')
  onBuildFailedAgents(): void {}
  @OnEvent('retrieval', 'agents.agent-deleted.v1')
  onDeletedRetrieval(): void {}

  @OnRpc('agents.corrections-export-page.v1')
  async correctionsPage(): Promise<RpcResponse<'agents.corrections-export-page.v1'>> {
    if (this.failCorrections) throw new Error('agents unavailable');
    return { version: this.feedbackVersion, corrections: this.corrections, next: null };
  }
}

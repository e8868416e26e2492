import { Injectable } from '@nestjs/common';
import type { EventMap } from '@gaia/contracts';
import { OnEvent } from '@gaia/shared/messaging';

/**
 * Stand-in consumers for the other services in ingestion tests: real @OnEvent handlers (delivered
 * through the outbox/inbox like production) that record what they received.
 */
@Injectable()
export class IngestionEventRecorder {
  readonly started: EventMap['ingestion.task-started.v1'][] = [];
  readonly progress: EventMap['ingestion.task-progress.v1'][] = [];
  readonly stored: EventMap['ingestion.pairs-stored.v1'][] = [];
  readonly finished: EventMap['ingestion.task-finished.v1'][] = [];

  @OnEvent('agents', 'ingestion.task-started.v1')
  onStarted(p: EventMap['ingestion.task-started.v1']): void {
    this.started.push(p);
  }
  @OnEvent('gateway', 'ingestion.task-started.v1')
  onStartedGateway(): void {}

  @OnEvent('gateway', 'ingestion.task-progress.v1')
  onProgress(p: EventMap['ingestion.task-progress.v1']): void {
    this.progress.push(p);
  }

  @OnEvent('retrieval', 'ingestion.pairs-stored.v1')
  onStored(p: EventMap['ingestion.pairs-stored.v1']): void {
    this.stored.push(p);
  }
  @OnEvent('translation', 'ingestion.pairs-stored.v1')
  onStoredTranslation(): void {}

  @OnEvent('agents', 'ingestion.task-finished.v1')
  onFinished(p: EventMap['ingestion.task-finished.v1']): void {
    this.finished.push(p);
  }
  @OnEvent('gateway', 'ingestion.task-finished.v1')
  onFinishedGateway(): void {}
}

import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { ACCOUNT_ERASURE_REPOSITORY, type AccountErasureRepositoryPort } from '@gaia/identity/data-access';
import { DATA_SOURCE } from '@gaia/shared/database';
import { CLOCK, DomainError, newId, type Clock } from '@gaia/shared/kernel';
import { JOB_QUEUE, OUTBOX, type JobQueue, type Outbox } from '@gaia/shared/messaging';
import { TranslateFileTaskStore } from '../translate-file/translate-file-task.store';

/** Job that removes the messaging rows naming a deleted account once every consumer has applied the deletion. */
export const SCRUB_ACCOUNT_MESSAGES_JOB = 'gateway.scrub-account-messages';
/** Retries while consumers catch up (backoff doubles from 1 s, capped at a minute: about 20 minutes in all). */
export const SCRUB_MAX_ATTEMPTS = 25;

/**
 * The privacy promise "deletion removes the data from active systems": the identity rows go at once (sessions,
 * API keys, tokens, idempotency records, rate counters), `identity.account-deleted.v1` makes agents (→ ingestion,
 * retrieval) and billing remove theirs, and a job (after the commit) removes the gateway's stored file translation
 * tasks of the account (uploaded sources, chunks, results) and then the delivered messages that still name it.
 */
@Injectable()
export class DeleteAccountUseCase {
  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(OUTBOX) private readonly outbox: Outbox,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ACCOUNT_ERASURE_REPOSITORY) private readonly erasure: AccountErasureRepositoryPort,
    private readonly fileTasks: TranslateFileTaskStore,
  ) {}

  execute(user: { id: string; email: string }, confirmEmail: string): Promise<{ success: true }> {
    if (confirmEmail.trim().toLowerCase() !== user.email.toLowerCase())
      throw DomainError.invalid('Type your email address to confirm the deletion.', 'confirmation_mismatch');
    return this.ds.transaction(async (em) => {
      const erased = await this.erasure.eraseUser(em, user.id, user.email);
      if (!erased) throw DomainError.notFound('Account not found.', 'account_not_found');
      const now = this.clock.now();
      const erasureId = newId();
      const email = user.email.toLowerCase();
      await this.erasure.recordErasure(em, { id: erasureId, userId: user.id, email }, now);
      await this.outbox.add(em, 'identity.account-deleted.v1', { userId: user.id, email, keyIds: erased.keyIds, deletedAt: now.toISOString() });
      await this.jobs.enqueue(em, SCRUB_ACCOUNT_MESSAGES_JOB, { erasureId }, { maxAttempts: SCRUB_MAX_ATTEMPTS });
      return { success: true as const };
    });
  }

  /**
   * The job: removes the account's file translation tasks from file storage (on every attempt: the job runs after
   * the account's row is gone, and a task job that writes after this sees the owner gone and removes its own files),
   * then waits (by failing, so it is retried with backoff) until no undelivered event names the account.
   */
  async scrub(erasureId: string): Promise<void> {
    const found = await this.ds.transaction((em) => this.erasure.findErasure(em, erasureId));
    if (!found) return;
    await this.fileTasks.deleteOwner(found.userId);
    return this.ds.transaction(async (em) => {
      const target = await this.erasure.findErasure(em, erasureId);
      if (!target) return;
      const waiting = await this.erasure.undeliveredMentions(em, target);
      if (waiting > 0) throw new Error(`waiting for ${waiting} deliveries of the deletion`);
      await this.erasure.scrubMessages(em, target);
    });
  }
}

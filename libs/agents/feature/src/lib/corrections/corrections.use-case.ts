import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { CORRECTIONS_MAX_PER_AGENT, FEEDBACK_PAGE_MAX_BYTES, type AgentFeedback, type CorrectionDto } from '@gaia/contracts';
import { AGENT_REPOSITORY, FEEDBACK_REPOSITORY, type AgentRepositoryPort, type CorrectionEntity, type FeedbackRepositoryPort } from '@gaia/agents/data-access';
import { DATA_SOURCE, UNIT_OF_WORK, type UnitOfWork } from '@gaia/shared/database';
import { CLOCK, DomainError, newId, type Clock } from '@gaia/shared/kernel';
import { authorize, normalizeEmail, type Viewer } from '../agent-policy';

export const CORRECTION_NOT_FOUND = 'Correction not found.';
/** Rows read per query while a feedback page is filled up to FEEDBACK_PAGE_MAX_BYTES. */
const FEEDBACK_PAGE_ROWS = 200;
/** Cursor prefixes of agents.feedback-page.v1: corrections, then glossary terms (after the id that follows). */
const CORRECTIONS_CURSOR = 'c:';
const GLOSSARY_CURSOR = 'g:';
/**
 * A page reads its version and its rows in one snapshot: a deletion (row gone and version bumped in one transaction)
 * is then either wholly before the page or wholly after it, so the version a page answers tells whether its rows hold.
 */
const PAGE_ISOLATION = 'REPEATABLE READ';

/** JSON bytes of one item of a page. */
const jsonBytes = (item: unknown): number => Buffer.byteLength(JSON.stringify(item), 'utf8');

/**
 * Fills a page from `read` (rows after a cursor id, in order) until FEEDBACK_PAGE_MAX_BYTES (at least one item when
 * the page is empty): answers whether the rows ran out and the id of the last row taken.
 */
async function fillPage<R extends { id: string }, T>(
  read: (afterId: string | null) => Promise<R[]>,
  afterId: string | null,
  map: (row: R) => T,
  page: { bytes: number; items: T[] },
): Promise<{ done: boolean; lastId: string | null }> {
  let last = afterId;
  for (;;) {
    const rows = await read(last);
    for (const row of rows) {
      const item = map(row);
      const bytes = jsonBytes(item);
      if (page.bytes + bytes > FEEDBACK_PAGE_MAX_BYTES && page.bytes > 0) return { done: false, lastId: last };
      page.items.push(item);
      page.bytes += bytes;
      last = row.id;
    }
    if (rows.length < FEEDBACK_PAGE_ROWS) return { done: true, lastId: last };
  }
}

export function toCorrectionDto(c: CorrectionEntity): CorrectionDto {
  return {
    id: c.id,
    source: c.source,
    translation: c.translation,
    corrected: c.corrected,
    author_uid: c.authorUid,
    author_email: c.authorEmail,
    created_at: c.createdAt.toISOString(),
  };
}

/**
 * Corrections: an owner or editor stores a better translation of a source text as the agent's own data. Each
 * change bumps the agent's feedback version in the same transaction, so every translation replica sees it on
 * its next request (agents.resolve.v1 carries the version), and the next learning run trains on it.
 */
@Injectable()
export class CorrectionsUseCase {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(AGENT_REPOSITORY) private readonly agents: AgentRepositoryPort,
    @Inject(FEEDBACK_REPOSITORY) private readonly feedback: FeedbackRepositoryPort,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  add(agentId: string, viewer: Viewer, input: { source: string; translation: string; corrected: string }): Promise<CorrectionDto> {
    return this.uow.run(async (em) => {
      // the row lock serialises concurrent additions (the per-agent limit holds)
      authorize(await this.agents.findById(em, agentId, { lock: true }), viewer, 'edit', 'correct this agent');
      if ((await this.feedback.countCorrections(em, agentId)) >= CORRECTIONS_MAX_PER_AGENT) {
        throw DomainError.conflict(
          `This agent already has ${CORRECTIONS_MAX_PER_AGENT.toLocaleString('en-US')} corrections. Undo some before adding more.`,
          'corrections_full',
        );
      }
      const correction: CorrectionEntity = {
        id: newId(),
        agentId,
        source: input.source,
        translation: input.translation,
        corrected: input.corrected,
        authorUid: viewer.uid,
        authorEmail: normalizeEmail(viewer.email),
        createdAt: this.clock.now(),
      };
      await this.feedback.addCorrection(em, correction);
      await this.feedback.bumpVersion(em, agentId);
      return toCorrectionDto(correction);
    });
  }

  async list(agentId: string, viewer: Viewer, limit: number, afterId: string | null): Promise<{ corrections: CorrectionDto[]; nextAfterId: string | null }> {
    authorize(await this.agents.findById(this.ds.manager, agentId), viewer, 'edit', 'see the corrections of this agent');
    const rows = await this.feedback.listCorrections(this.ds.manager, agentId, limit + 1, afterId);
    const items = rows.slice(0, limit);
    return { corrections: items.map(toCorrectionDto), nextAfterId: rows.length > limit ? items[items.length - 1].id : null };
  }

  undo(agentId: string, viewer: Viewer, correctionId: string): Promise<{ success: true }> {
    return this.uow.run(async (em) => {
      authorize(await this.agents.findById(em, agentId, { lock: true }), viewer, 'edit', 'correct this agent');
      if (!(await this.feedback.removeCorrection(em, agentId, correctionId))) throw DomainError.notFound(CORRECTION_NOT_FOUND, 'correction_not_found');
      await this.feedback.bumpVersion(em, agentId);
      return { success: true as const };
    });
  }

  /**
   * Internal: one page of the dataset download's corrections (newest first), at most FEEDBACK_PAGE_MAX_BYTES, with the
   * feedback version (the caller starts over when it changed: a deleted cursor row would end the read early).
   */
  async exportPage(agentId: string, cursor: string | null): Promise<{ version: number; corrections: CorrectionDto[]; next: string | null }> {
    return this.ds.transaction(PAGE_ISOLATION, async (em) => {
      const version = await this.feedback.version(em, agentId);
      const page = { bytes: 0, items: [] as CorrectionDto[] };
      const after = cursor?.startsWith(CORRECTIONS_CURSOR) ? cursor.slice(CORRECTIONS_CURSOR.length) || null : null;
      const { done, lastId } = await fillPage((id) => this.feedback.listCorrections(em, agentId, FEEDBACK_PAGE_ROWS, id), after, toCorrectionDto, page);
      return { version, corrections: page.items, next: done ? null : `${CORRECTIONS_CURSOR}${lastId ?? ''}` };
    });
  }

  /**
   * Internal: one page (at most FEEDBACK_PAGE_MAX_BYTES) of what the translation and retrieval services use: the
   * corrections newest first, then the glossary by term; `next` null on the last page.
   */
  async feedbackPage(agentId: string, cursor: string | null): Promise<AgentFeedback & { next: string | null }> {
    return this.ds.transaction(PAGE_ISOLATION, (em) => this.feedbackPageIn(em, agentId, cursor));
  }

  private async feedbackPageIn(em: EntityManager, agentId: string, cursor: string | null): Promise<AgentFeedback & { next: string | null }> {
    const agent = await this.agents.findById(em, agentId);
    if (!agent || agent.deletedAt) return { version: 0, corrections: [], glossary: [], next: null };
    const version = await this.feedback.version(em, agentId);
    const corrections = { bytes: 0, items: [] as AgentFeedback['corrections'] };
    let termsAfter: string | null = null;
    if (!cursor?.startsWith(GLOSSARY_CURSOR)) {
      const after = cursor?.startsWith(CORRECTIONS_CURSOR) ? cursor.slice(CORRECTIONS_CURSOR.length) || null : null;
      const c = await fillPage(
        (id) => this.feedback.listCorrections(em, agentId, FEEDBACK_PAGE_ROWS, id),
        after,
        (r) => ({ id: r.id, source: r.source, target: r.corrected }),
        corrections,
      );
      if (!c.done) return { version, corrections: corrections.items, glossary: [], next: `${CORRECTIONS_CURSOR}${c.lastId ?? ''}` };
    } else termsAfter = cursor.slice(GLOSSARY_CURSOR.length) || null;
    const terms = { bytes: corrections.bytes, items: [] as AgentFeedback['glossary'] };
    const g = await fillPage(
      (id) => this.feedback.listTerms(em, agentId, FEEDBACK_PAGE_ROWS, id),
      termsAfter,
      (t) => ({ term: t.term, translation: t.translation, case_sensitive: t.caseSensitive }),
      terms,
    );
    return { version, corrections: corrections.items, glossary: terms.items, next: g.done ? null : `${GLOSSARY_CURSOR}${g.lastId ?? ''}` };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { CORRECTIONS_MAX_PER_AGENT, type AgentFeedback, type CorrectionDto } from '@gaia/contracts';
import { AGENT_REPOSITORY, FEEDBACK_REPOSITORY, type AgentRepositoryPort, type CorrectionEntity, type FeedbackRepositoryPort } from '@gaia/agents/data-access';
import { DATA_SOURCE, UNIT_OF_WORK, type UnitOfWork } from '@gaia/shared/database';
import { CLOCK, DomainError, newId, type Clock } from '@gaia/shared/kernel';
import { authorize, normalizeEmail, type Viewer } from '../agent-policy';

export const CORRECTION_NOT_FOUND = 'Correction not found.';

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

  /** Internal: every correction, oldest first (dataset download). */
  async exportAll(agentId: string): Promise<CorrectionDto[]> {
    return (await this.feedback.listCorrections(this.ds.manager, agentId, null, null)).reverse().map(toCorrectionDto);
  }

  /** Internal: everything the translation and retrieval services use (corrections newest first, glossary by term). */
  async feedbackOf(agentId: string): Promise<AgentFeedback> {
    const em = this.ds.manager;
    const agent = await this.agents.findById(em, agentId);
    if (!agent || agent.deletedAt) return { version: 0, corrections: [], glossary: [] };
    const [version, corrections, terms] = await Promise.all([
      this.feedback.version(em, agentId),
      this.feedback.listCorrections(em, agentId, null, null),
      this.feedback.listTerms(em, agentId, null, null),
    ]);
    return {
      version,
      corrections: corrections.map((c) => ({ id: c.id, source: c.source, target: c.corrected })),
      glossary: terms.map((t) => ({ term: t.term, translation: t.translation, case_sensitive: t.caseSensitive })),
    };
  }
}

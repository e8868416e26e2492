import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { GLOSSARY_MAX_TERMS, type GlossaryTermDto } from '@gaia/contracts';
import {
  AGENT_REPOSITORY,
  FEEDBACK_REPOSITORY,
  type AgentRepositoryPort,
  type FeedbackRepositoryPort,
  type GlossaryTermEntity,
} from '@gaia/agents/data-access';
import { DATA_SOURCE, UNIT_OF_WORK, type UnitOfWork } from '@gaia/shared/database';
import { CLOCK, DomainError, newId, type Clock } from '@gaia/shared/kernel';
import { authorize, type Viewer } from '../agent-policy';
import { readGlossaryFile, type ImportedTerm } from './glossary-import';

export const TERM_NOT_FOUND = 'Term not found.';
export const TERM_EXISTS = 'This term is already in the glossary.';

export interface GlossaryTermInputValue {
  term: string;
  translation: string;
  note: string;
  case_sensitive: boolean;
}

export function toGlossaryTermDto(t: GlossaryTermEntity): GlossaryTermDto {
  return {
    id: t.id,
    term: t.term,
    translation: t.translation,
    note: t.note,
    case_sensitive: t.caseSensitive,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}

const full = () => DomainError.conflict(`A glossary holds at most ${GLOSSARY_MAX_TERMS.toLocaleString('en-US')} terms.`, 'glossary_full');

/** The glossary of an agent (owner or editor): terms the engines must translate as given. */
@Injectable()
export class GlossaryUseCase {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(AGENT_REPOSITORY) private readonly agents: AgentRepositoryPort,
    @Inject(FEEDBACK_REPOSITORY) private readonly feedback: FeedbackRepositoryPort,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private async editable(em: EntityManager, agentId: string, viewer: Viewer) {
    return authorize(await this.agents.findById(em, agentId, { lock: true }), viewer, 'edit', 'edit the glossary of this agent').agent;
  }

  async list(agentId: string, viewer: Viewer, limit: number, afterId: string | null): Promise<{ terms: GlossaryTermDto[]; nextAfterId: string | null }> {
    authorize(await this.agents.findById(this.ds.manager, agentId), viewer, 'edit', 'see the glossary of this agent');
    const rows = await this.feedback.listTerms(this.ds.manager, agentId, limit + 1, afterId);
    const items = rows.slice(0, limit);
    return { terms: items.map(toGlossaryTermDto), nextAfterId: rows.length > limit ? items[items.length - 1].id : null };
  }

  add(agentId: string, viewer: Viewer, input: GlossaryTermInputValue): Promise<GlossaryTermDto> {
    return this.uow.run(async (em) => {
      await this.editable(em, agentId, viewer);
      if (await this.feedback.findTermByKey(em, agentId, input.term)) throw DomainError.conflict(TERM_EXISTS, 'term_exists');
      if ((await this.feedback.countTerms(em, agentId)) >= GLOSSARY_MAX_TERMS) throw full();
      const now = this.clock.now();
      const term: GlossaryTermEntity = {
        id: newId(),
        agentId,
        term: input.term,
        translation: input.translation,
        note: input.note,
        caseSensitive: input.case_sensitive,
        createdAt: now,
        updatedAt: now,
      };
      await this.feedback.insertTerm(em, term);
      await this.feedback.bumpVersion(em, agentId);
      return toGlossaryTermDto(term);
    });
  }

  update(agentId: string, viewer: Viewer, termId: string, input: GlossaryTermInputValue): Promise<GlossaryTermDto> {
    return this.uow.run(async (em) => {
      await this.editable(em, agentId, viewer);
      const found = await this.feedback.findTerm(em, agentId, termId);
      if (!found) throw DomainError.notFound(TERM_NOT_FOUND, 'term_not_found');
      const clash = await this.feedback.findTermByKey(em, agentId, input.term);
      if (clash && clash.id !== termId) throw DomainError.conflict(TERM_EXISTS, 'term_exists');
      const next: GlossaryTermEntity = {
        ...found,
        term: input.term,
        translation: input.translation,
        note: input.note,
        caseSensitive: input.case_sensitive,
        updatedAt: this.clock.now(),
      };
      await this.feedback.updateTerm(em, next);
      await this.feedback.bumpVersion(em, agentId);
      return toGlossaryTermDto(next);
    });
  }

  remove(agentId: string, viewer: Viewer, termId: string): Promise<{ success: true }> {
    return this.uow.run(async (em) => {
      await this.editable(em, agentId, viewer);
      if (!(await this.feedback.removeTerm(em, agentId, termId))) throw DomainError.notFound(TERM_NOT_FOUND, 'term_not_found');
      await this.feedback.bumpVersion(em, agentId);
      return { success: true as const };
    });
  }

  /** Adds the file's terms; a term already in the glossary (same term ignoring case) is updated. All or nothing. */
  importFile(agentId: string, viewer: Viewer, format: 'csv' | 'tsv' | 'tbx', content: string): Promise<{ added: number; updated: number; total: number }> {
    return this.uow.run(async (em) => {
      const agent = await this.editable(em, agentId, viewer);
      const terms = readGlossaryFile(format, content, { srcLang: agent.srcLang, tgtLang: agent.tgtLang });
      const now = this.clock.now();
      let added = 0;
      let updated = 0;
      const seen = new Map<string, ImportedTerm>();
      for (const t of terms) seen.set(t.term.toLowerCase(), t); // the last row of a repeated term wins
      for (const t of seen.values()) {
        const found = await this.feedback.findTermByKey(em, agentId, t.term);
        if (found) {
          await this.feedback.updateTerm(em, {
            ...found,
            term: t.term,
            translation: t.translation,
            note: t.note || found.note,
            caseSensitive: t.caseSensitive,
            updatedAt: now,
          });
          updated++;
        } else {
          await this.feedback.insertTerm(em, {
            id: newId(),
            agentId,
            term: t.term,
            translation: t.translation,
            note: t.note,
            caseSensitive: t.caseSensitive,
            createdAt: now,
            updatedAt: now,
          });
          added++;
        }
      }
      const total = await this.feedback.countTerms(em, agentId);
      if (total > GLOSSARY_MAX_TERMS) throw full();
      await this.feedback.bumpVersion(em, agentId);
      return { added, updated, total };
    });
  }
}

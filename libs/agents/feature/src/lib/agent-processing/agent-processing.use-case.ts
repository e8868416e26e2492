import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventMap } from '@gaia/contracts';
import { AGENT_REPOSITORY, type AgentEntity, type AgentRepositoryPort } from '@gaia/agents/data-access';
import { CLOCK, type Clock } from '@gaia/shared/kernel';
import { AgentEventPublisher } from '../agent-events';
import { mergeDocumentSource } from '../agent.mapper';
import { CreateAgentUseCase, normalizeLang } from '../create-agent/create-agent.use-case';

export type LearnedResult = EventMap['retrieval.agent-learned.v1'];

type Changes = Partial<AgentEntity>;

function diff(agent: AgentEntity, wanted: Changes): Changes {
  const out: Changes = {};
  for (const [k, v] of Object.entries(wanted) as [keyof AgentEntity, unknown][]) {
    if (v !== undefined && agent[k] !== v) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

/**
 * The agent's mirror of processing (ingestion events) and learning (retrieval) state. Runs inside the
 * event's inbox transaction (exactly once per event); deleted agents are never touched or revived.
 */
@Injectable()
export class AgentProcessingUseCase {
  private readonly logger = new Logger('AgentProcessing');

  constructor(
    @Inject(AGENT_REPOSITORY) private readonly agents: AgentRepositoryPort,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly events: AgentEventPublisher,
    private readonly create: CreateAgentUseCase,
  ) {}

  async taskStarted(em: EntityManager, p: EventMap['ingestion.task-started.v1']): Promise<void> {
    const existing = await this.agents.findById(em, p.agentId, { lock: true });
    if (!existing) {
      if (p.mode !== 'create') return this.logger.warn(`task ${p.taskId} updates unknown agent ${p.agentId}`);
      await this.create.createIn(em, {
        id: p.agentId,
        ownerId: p.ownerId,
        ownerEmail: '',
        srcLang: p.srcLang,
        tgtLang: p.tgtLang,
        customPrompt: p.customPrompt,
        coreMemory: p.coreMemory,
        processingTaskId: p.taskId,
        filenames: p.filenames,
        engine: 'builtin',
        public: false,
      });
      return;
    }
    if (existing.deletedAt || existing.ownerId !== p.ownerId) return;
    const wanted: Changes = {
      processingTaskId: p.taskId,
      processingStatus: 'PROCESSING',
      processingError: null,
      documentSource: mergeDocumentSource(existing.documentSource, p.filenames),
    };
    if (p.mode === 'update') {
      // update-model carries the edit form's fields: apply the non-blank ones.
      if (normalizeLang(p.srcLang)) wanted.srcLang = normalizeLang(p.srcLang);
      if (normalizeLang(p.tgtLang)) wanted.tgtLang = normalizeLang(p.tgtLang);
      if (p.customPrompt.trim()) wanted.customPrompt = p.customPrompt;
      if (p.coreMemory.trim()) wanted.coreMemory = p.coreMemory;
    }
    await this.apply(em, existing, wanted, 'processing');
  }

  async taskFinished(em: EntityManager, p: EventMap['ingestion.task-finished.v1']): Promise<void> {
    const agent = await this.agents.findById(em, p.agentId, { lock: true });
    if (!agent || agent.deletedAt) return;
    const counts: Changes = {
      documentCount: p.documentCount,
      textBlocksExtracted: p.textBlocksExtracted,
      pairCount: p.pairCount,
      documentSource: mergeDocumentSource(agent.documentSource, p.filenames),
    };
    // A newer task owns the processing fields: only the counts of this one are kept.
    const current = agent.processingTaskId === null || agent.processingTaskId === p.taskId;
    const wanted: Changes = !current
      ? counts
      : p.status === 'COMPLETED'
        ? { ...counts, processingStatus: 'COMPLETED', processingTaskId: null, processingError: null }
        : { ...counts, processingStatus: 'FAILED', processingTaskId: p.taskId, processingError: p.processingError ?? p.message };
    await this.apply(em, agent, wanted, 'processing');
  }

  /**
   * Learned results (retrieval.agent-learned.v1): memory summary, pair count, artifact version and key.
   * The learned task is complete for the agent; a newer task keeps its own processing state.
   */
  async learned(em: EntityManager, p: LearnedResult): Promise<void> {
    const agent = await this.agents.findById(em, p.agentId, { lock: true });
    if (!agent || agent.deletedAt) return;
    const wanted: Changes = { learnedMemory: p.learnedSummary, pairCount: p.pairCount, artifactVersion: p.version, artifactKey: p.artifactKey };
    if (agent.processingTaskId === null || p.taskId === null || agent.processingTaskId === p.taskId) {
      Object.assign(wanted, { processingStatus: 'COMPLETED', processingTaskId: null, processingError: null });
    }
    await this.apply(em, agent, wanted, 'learned');
  }

  /** Learning failed for good (retrieval.build-failed.v1): FAILED with the message, unless a newer task runs. */
  async buildFailed(em: EntityManager, p: EventMap['retrieval.build-failed.v1']): Promise<void> {
    const agent = await this.agents.findById(em, p.agentId, { lock: true });
    if (!agent || agent.deletedAt) return;
    if (agent.processingTaskId !== null && p.taskId !== null && agent.processingTaskId !== p.taskId) return;
    await this.apply(em, agent, { processingStatus: 'FAILED', processingError: p.message, processingTaskId: p.taskId ?? agent.processingTaskId }, 'processing');
  }

  private async apply(em: EntityManager, agent: AgentEntity, wanted: Changes, change: 'processing' | 'learned'): Promise<void> {
    const changes = diff(agent, wanted);
    if (Object.keys(changes).length === 0) return;
    const next: AgentEntity = { ...agent, ...changes, version: agent.version + 1, updatedAt: this.clock.now() };
    await this.agents.save(em, next);
    await this.events.updated(em, next, change);
  }
}

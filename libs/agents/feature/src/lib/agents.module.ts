import { Module } from '@nestjs/common';
import {
  AGENT_CHANGES,
  AGENT_REPOSITORY,
  AgentsErasureRepository,
  FEEDBACK_REPOSITORY,
  PostgresFeedbackRepository,
  PostgresAgentChanges,
  PostgresAgentRepository,
  PostgresTeamRepository,
  TEAM_REPOSITORY,
} from '@gaia/agents/data-access';
import { AgentRowCache } from './agent-row-cache';
import { PostgresQualityReportRepository, QUALITY_REPORT_REPOSITORY } from '@gaia/agents/data-access';
import { AccountEventsListener } from './erase-account/account-events.listener';
import { AgentEventPublisher } from './agent-events';
import { AgentProcessingUseCase } from './agent-processing/agent-processing.use-case';
import { AgentQueriesUseCase } from './agent-queries/agent-queries.use-case';
import { AgentsRpcHandlers } from './agents.rpc';
import { CreateAgentUseCase } from './create-agent/create-agent.use-case';
import { DeleteAgentUseCase } from './delete-agent/delete-agent.use-case';
import { EditAgentUseCase } from './edit-agent/edit-agent.use-case';
import { EraseAccountAgentsUseCase } from './erase-account/erase-account.use-case';
import { ProcessingEventsListener } from './processing-events.listener';
import { TeamUseCase } from './team/team.use-case';
import { QualityReportUseCase } from './quality/quality-report.use-case';
import { QualityEventsListener } from './quality/quality-events.listener';
import { CorrectionsUseCase } from './corrections/corrections.use-case';
import { FeedbackRpcHandlers } from './corrections/feedback.rpc';
import { GlossaryUseCase } from './glossary/glossary.use-case';

/**
 * The agents service: agents (spec `sota`) and teams. RPCs `agents.*.v1`, consumer `agents` of the
 * ingestion (and retrieval) events, events `agents.agent-updated.v1` / `agents.agent-deleted.v1`.
 * Needs CoreModule with `agentsSchema` in the app's schema bundles.
 */
@Module({
  providers: [
    { provide: AGENT_REPOSITORY, useClass: PostgresAgentRepository },
    { provide: TEAM_REPOSITORY, useClass: PostgresTeamRepository },
    { provide: AGENT_CHANGES, useClass: PostgresAgentChanges },
    AgentRowCache,
    AgentEventPublisher,
    CreateAgentUseCase,
    AgentQueriesUseCase,
    EditAgentUseCase,
    DeleteAgentUseCase,
    AgentProcessingUseCase,
    TeamUseCase,
    AgentsRpcHandlers,
    ProcessingEventsListener,
    AgentsErasureRepository,
    EraseAccountAgentsUseCase,
    AccountEventsListener,
    { provide: QUALITY_REPORT_REPOSITORY, useClass: PostgresQualityReportRepository },
    QualityReportUseCase,
    QualityEventsListener,
    { provide: FEEDBACK_REPOSITORY, useClass: PostgresFeedbackRepository },
    CorrectionsUseCase,
    GlossaryUseCase,
    FeedbackRpcHandlers,
  ],
  exports: [AgentQueriesUseCase, CreateAgentUseCase, EditAgentUseCase, DeleteAgentUseCase, TeamUseCase, AgentProcessingUseCase],
})
export class AgentsModule {}

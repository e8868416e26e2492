export * from './lib/agent.entity';
export * from './lib/agent.repository';
export * from './lib/team.repository';
export * from './lib/agents.schema';
export * from './lib/account-erasure.repository';
export * from './lib/feedback.repository';
export * from './lib/quality-report.repository';
export * from './lib/agent-changes.adapter';

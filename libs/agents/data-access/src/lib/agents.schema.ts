import type { SchemaBundle } from '@gaia/shared/database';
import { AgentsInit1767200000000 } from './migrations/1767200000000-agents-init';
import { AgentsTeamInvitations1779500000001 } from './migrations/1779500000001-agents-team-invitations';
import { AgentsQualityReports1795600000014 } from './migrations/1795600000014-agents-quality-reports';
import { AgentsFeedback1795500000014 } from './migrations/1795500000014-agents-feedback';
import { AgentsChangeNotify1795700000001 } from './migrations/1795700000001-agents-change-notify';
import { AgentsTombstoneEmails1795800000005 } from './migrations/1795800000005-agents-tombstone-emails';

export const agentsSchema: SchemaBundle = {
  name: 'agents',
  entities: [],
  migrations: [
    AgentsInit1767200000000,
    AgentsTeamInvitations1779500000001,
    AgentsFeedback1795500000014,
    AgentsQualityReports1795600000014,
    AgentsChangeNotify1795700000001,
    AgentsTombstoneEmails1795800000005,
  ],
};

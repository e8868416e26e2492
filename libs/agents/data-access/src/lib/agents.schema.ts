import type { SchemaBundle } from '@gaia/shared/database';
import { AgentsInit1767200000000 } from './migrations/1767200000000-agents-init';

export const agentsSchema: SchemaBundle = { name: 'agents', entities: [], migrations: [AgentsInit1767200000000] };

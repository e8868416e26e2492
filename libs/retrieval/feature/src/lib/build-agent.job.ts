import { Injectable } from '@nestjs/common';
import { OnJob, type JobContext } from '@gaia/shared/messaging';
import { BuildAgentUseCase, type BuildAgentJob } from './build-agent.use-case';
import { BUILD_AGENT_JOB } from './retrieval.tokens';

/** Lease of a build (learning an agent takes minutes; the use case heartbeats while it runs). */
const BUILD_AGENT_LEASE_MS = 180_000;

/** The durable worker of agent builds (resumed after a crash by the job runner's lease). */
@Injectable()
export class BuildAgentJobHandler {
  constructor(private readonly build: BuildAgentUseCase) {}

  @OnJob('retrieval', BUILD_AGENT_JOB, { leaseMs: BUILD_AGENT_LEASE_MS })
  run(payload: BuildAgentJob, ctx: JobContext): Promise<void> {
    return this.build.run(payload, ctx);
  }
}

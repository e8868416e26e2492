import { Injectable } from '@nestjs/common';
import type { RpcRequest, RpcResponse } from '@gaia/contracts';
import { OnRpc } from '@gaia/shared/messaging';
import { AgentQueriesUseCase } from './agent-queries/agent-queries.use-case';
import { DeleteAgentUseCase } from './delete-agent/delete-agent.use-case';
import { EditAgentUseCase } from './edit-agent/edit-agent.use-case';
import { TeamUseCase } from './team/team.use-case';
import { AgentRowCache } from './agent-row-cache';

type Req<K extends Parameters<typeof OnRpc>[0]> = RpcRequest<K>;
type Res<K extends Parameters<typeof OnRpc>[0]> = Promise<RpcResponse<K>>;

/** RPCs `agents.*.v1`: map the (already validated) request to a use case. */
@Injectable()
export class AgentsRpcHandlers {
  constructor(
    private readonly queries: AgentQueriesUseCase,
    private readonly edit: EditAgentUseCase,
    private readonly remove: DeleteAgentUseCase,
    private readonly team: TeamUseCase,
    private readonly rows: AgentRowCache,
  ) {}

  @OnRpc('agents.get.v1')
  get(r: Req<'agents.get.v1'>): Res<'agents.get.v1'> {
    return this.queries.get(r.agentId, viewerOf(r.viewer), r.channel ?? 'session');
  }

  @OnRpc('agents.access.v1')
  access(r: Req<'agents.access.v1'>): Res<'agents.access.v1'> {
    return this.queries.access(r.agentId, viewerOf(r.viewer), r.need ?? 'read', r.record ?? false);
  }

  @OnRpc('agents.resolve.v1')
  async resolve(r: Req<'agents.resolve.v1'>): Res<'agents.resolve.v1'> {
    return { agent: await this.queries.resolve(r.agentId) };
  }

  @OnRpc('agents.list-public.v1')
  async listPublic(r: Req<'agents.list-public.v1'>): Res<'agents.list-public.v1'> {
    return { agents: await this.queries.listPublic(r.limit ?? 200, r.afterId ?? null) };
  }

  @OnRpc('agents.list-mine.v1')
  listMine(r: Req<'agents.list-mine.v1'>): Res<'agents.list-mine.v1'> {
    return this.queries.listMine(viewerOf(r.viewer)!, { limit: r.limit ?? null, afterId: r.afterId ?? null });
  }

  @OnRpc('agents.update.v1')
  update(r: Req<'agents.update.v1'>): Res<'agents.update.v1'> {
    return this.rows.afterChange(this.edit.update(r.agentId, viewerOf(r.viewer)!, r.patch));
  }

  @OnRpc('agents.set-visibility.v1')
  setVisibility(r: Req<'agents.set-visibility.v1'>): Res<'agents.set-visibility.v1'> {
    return this.rows.afterChange(this.edit.setVisibility(r.agentId, viewerOf(r.viewer)!, r.public));
  }

  @OnRpc('agents.delete.v1')
  delete(r: Req<'agents.delete.v1'>): Res<'agents.delete.v1'> {
    return this.rows.afterChange(this.remove.execute(r.agentId, viewerOf(r.viewer)!));
  }

  @OnRpc('agents.team-list.v1')
  async teamList(r: Req<'agents.team-list.v1'>): Res<'agents.team-list.v1'> {
    return { members: await this.team.list(r.ownerId) };
  }

  @OnRpc('agents.team-invite.v1')
  teamInvite(r: Req<'agents.team-invite.v1'>): Res<'agents.team-invite.v1'> {
    return this.team.invite(r.ownerId, r.ownerEmail ?? '', r.name, r.email, r.tokenHash);
  }

  @OnRpc('agents.team-accept.v1')
  teamAccept(r: Req<'agents.team-accept.v1'>): Res<'agents.team-accept.v1'> {
    return this.rows.afterChange(this.team.accept(r.tokenHash, viewerOf(r.viewer)!));
  }

  @OnRpc('agents.team-remove.v1')
  teamRemove(r: Req<'agents.team-remove.v1'>): Res<'agents.team-remove.v1'> {
    return this.rows.afterChange(this.team.remove(r.ownerId, r.memberId));
  }
}

function viewerOf(v: { uid: string; email?: string } | null | undefined): { uid: string; email: string } | null {
  return v ? { uid: v.uid, email: v.email ?? '' } : null;
}

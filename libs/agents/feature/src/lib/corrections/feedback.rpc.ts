import { Injectable } from '@nestjs/common';
import type { RpcRequest, RpcResponse } from '@gaia/contracts';
import { OnRpc } from '@gaia/shared/messaging';
import { AgentRowCache } from '../agent-row-cache';
import { GlossaryUseCase } from '../glossary/glossary.use-case';
import { CorrectionsUseCase } from './corrections.use-case';

type Req<K extends Parameters<typeof OnRpc>[0]> = RpcRequest<K>;
type Res<K extends Parameters<typeof OnRpc>[0]> = Promise<RpcResponse<K>>;

const viewerOf = (v: { uid: string; email?: string }) => ({ uid: v.uid, email: v.email ?? '' });
const DEFAULT_PAGE = 50;

/** RPCs of corrections and the glossary (`agents.corrections-*.v1`, `agents.glossary-*.v1`, `agents.feedback-page.v1`). */
@Injectable()
export class FeedbackRpcHandlers {
  constructor(
    private readonly corrections: CorrectionsUseCase,
    private readonly glossary: GlossaryUseCase,
    private readonly rows: AgentRowCache,
  ) {}

  @OnRpc('agents.corrections-add.v1')
  addCorrection(r: Req<'agents.corrections-add.v1'>): Res<'agents.corrections-add.v1'> {
    const c = r.correction;
    return this.rows.afterChange(
      this.corrections.add(r.agentId, viewerOf(r.viewer), { source: c.source, translation: c.translation ?? '', corrected: c.corrected }),
    );
  }

  @OnRpc('agents.corrections-list.v1')
  listCorrections(r: Req<'agents.corrections-list.v1'>): Res<'agents.corrections-list.v1'> {
    return this.corrections.list(r.agentId, viewerOf(r.viewer), r.limit ?? DEFAULT_PAGE, r.afterId ?? null);
  }

  @OnRpc('agents.corrections-undo.v1')
  undoCorrection(r: Req<'agents.corrections-undo.v1'>): Res<'agents.corrections-undo.v1'> {
    return this.rows.afterChange(this.corrections.undo(r.agentId, viewerOf(r.viewer), r.correctionId));
  }

  @OnRpc('agents.glossary-list.v1')
  listTerms(r: Req<'agents.glossary-list.v1'>): Res<'agents.glossary-list.v1'> {
    return this.glossary.list(r.agentId, viewerOf(r.viewer), r.limit ?? DEFAULT_PAGE, r.afterId ?? null);
  }

  @OnRpc('agents.glossary-add.v1')
  addTerm(r: Req<'agents.glossary-add.v1'>): Res<'agents.glossary-add.v1'> {
    return this.rows.afterChange(this.glossary.add(r.agentId, viewerOf(r.viewer), termOf(r.term)));
  }

  @OnRpc('agents.glossary-update.v1')
  updateTerm(r: Req<'agents.glossary-update.v1'>): Res<'agents.glossary-update.v1'> {
    return this.rows.afterChange(this.glossary.update(r.agentId, viewerOf(r.viewer), r.termId, termOf(r.term)));
  }

  @OnRpc('agents.glossary-delete.v1')
  deleteTerm(r: Req<'agents.glossary-delete.v1'>): Res<'agents.glossary-delete.v1'> {
    return this.rows.afterChange(this.glossary.remove(r.agentId, viewerOf(r.viewer), r.termId));
  }

  @OnRpc('agents.glossary-import.v1')
  importTerms(r: Req<'agents.glossary-import.v1'>): Res<'agents.glossary-import.v1'> {
    return this.rows.afterChange(this.glossary.importFile(r.agentId, viewerOf(r.viewer), r.format, r.content));
  }

  @OnRpc('agents.corrections-export-page.v1')
  exportCorrectionsPage(r: Req<'agents.corrections-export-page.v1'>): Res<'agents.corrections-export-page.v1'> {
    return this.corrections.exportPage(r.agentId, r.cursor ?? null);
  }

  @OnRpc('agents.feedback-page.v1')
  feedbackPage(r: Req<'agents.feedback-page.v1'>): Res<'agents.feedback-page.v1'> {
    return this.corrections.feedbackPage(r.agentId, r.cursor ?? null);
  }
}

function termOf(t: RpcRequest<'agents.glossary-add.v1'>['term']) {
  return { term: t.term, translation: t.translation, note: t.note ?? '', case_sensitive: t.case_sensitive ?? false };
}

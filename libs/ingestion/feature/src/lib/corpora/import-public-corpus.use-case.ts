import { Inject, Injectable } from '@nestjs/common';
import { INGESTION_MAX_FILE_BYTES, ingestionUploadKey, type PublicCorpusDto, type RpcRequest, type RpcResponse } from '@gaia/contracts';
import { DomainError, newId } from '@gaia/shared/kernel';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { StartProcessingUseCase } from '../start-processing/start-processing.use-case';
import { PUBLIC_CORPORA, type PublicCorporaPort, type PublicCorpus } from './public-corpora.port';

const dto = (c: PublicCorpus): PublicCorpusDto => ({
  name: c.name,
  version: c.version,
  pairs: c.pairs,
  size_bytes: c.sizeBytes,
  license: c.license,
  format: c.format,
});

/** What the agent's description records about imported public data (shown on the agent). */
export const corpusCredit = (c: PublicCorpus): string => `Public data: ${c.name}${c.version ? ` ${c.version}` : ''} (${c.pairs} pairs), license: ${c.license}.`;

/**
 * Public corpora discovery: list a language pair's corpora in the catalogue, and import one into a new or an
 * existing agent through the normal ingestion path (the archive becomes an upload; its Moses halves or TMX are
 * parsed like any zip), with the corpus and its license recorded in the agent's description.
 */
@Injectable()
export class PublicCorporaUseCase {
  constructor(
    @Inject(PUBLIC_CORPORA) private readonly catalogue: PublicCorporaPort,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    private readonly start: StartProcessingUseCase,
  ) {}

  async list(srcLang: string, tgtLang: string): Promise<PublicCorpusDto[]> {
    return (await this.catalogue.list(srcLang.toLowerCase(), tgtLang.toLowerCase())).map(dto);
  }

  async import(req: RpcRequest<'ingestion.import-public-corpus.v1'>): Promise<RpcResponse<'ingestion.import-public-corpus.v1'>> {
    const srcLang = req.srcLang.toLowerCase();
    const tgtLang = req.tgtLang.toLowerCase();
    // Who may add data comes first: a caller who is not the owner learns nothing and costs no catalogue call.
    const agent = req.agentId ? await this.ownedAgent(req.agentId, req.ownerId) : null;
    const found = (await this.catalogue.list(srcLang, tgtLang)).filter((c) => c.name === req.corpus && (!req.format || c.format === req.format));
    // Moses halves are the lighter archive when both are offered.
    const corpus = found.find((c) => c.format === 'moses') ?? found[0];
    if (!corpus) throw DomainError.notFound(`No public corpus ${req.corpus} for ${srcLang}-${tgtLang}.`, 'corpus_not_found');
    const credit = corpusCredit(corpus);
    const bytes = await this.catalogue.download(corpus.url, INGESTION_MAX_FILE_BYTES);
    const filename = `${corpus.name}${corpus.version ? `-${corpus.version}` : ''}.${srcLang}-${tgtLang}.${corpus.format}.zip`.replace(
      /[^\p{L}\p{N}._-]+/gu,
      '_',
    );
    const key = `${ingestionUploadKey(`corpus-${newId()}`, 0)}-${filename}`;
    await this.storage.put(key, bytes);
    const files = [{ key, filename, size: bytes.byteLength }];
    if (!agent) {
      const task = await this.start.execute({ mode: 'create', ownerId: req.ownerId, srcLang, tgtLang, customPrompt: credit, files });
      return { task_id: task.task_id, model_id: task.model_id, corpus: dto(corpus) };
    }
    const description = agent.custom_prompt.includes(credit) ? agent.custom_prompt : `${agent.custom_prompt}\n${credit}`.trim();
    if (description !== agent.custom_prompt)
      await this.rpc.call('agents.update.v1', { agentId: agent.id, viewer: { uid: req.ownerId, email: '' }, patch: { custom_prompt: description } });
    const task = await this.start.execute({
      mode: 'update',
      agentId: agent.id,
      ownerId: req.ownerId,
      srcLang: agent.src_lang,
      tgtLang: agent.tgt_lang,
      customPrompt: description,
      coreMemory: agent.core_memory,
      files,
    });
    return { task_id: task.task_id, model_id: agent.id, corpus: dto(corpus) };
  }

  private async ownedAgent(agentId: string, ownerId: string) {
    const { agent } = await this.rpc.call('agents.resolve.v1', { agentId });
    // Not the owner: the same answer as an agent that does not exist (editors add data through the agent page).
    if (!agent || agent.uid !== ownerId) throw DomainError.notFound('Model not found.', 'agent_not_found');
    return agent;
  }
}

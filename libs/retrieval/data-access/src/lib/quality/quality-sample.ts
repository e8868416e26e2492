import { QUALITY_AB_MAX_PAIRS } from '@gaia/contracts';
import type { FileStorage } from '@gaia/shared/storage';
import { encodeAgentArtifacts, type AgentArtifacts } from '../agent-artifacts.codec';
import type { HeldOutTranslation } from './measure-holdout';

/**
 * What a build keeps for the LLM A/B of its version (run after the build by the translation service when an LLM is
 * configured, then deleted): the held-out model (learned without the held-out pairs, as the built-in engine's score
 * was measured) and the first QUALITY_AB_MAX_PAIRS held-out pairs with the built-in engine's translations. Both live
 * under the agent's artifacts folder, so deleting the agent deletes them.
 */
export interface QualitySample {
  srcLang: string;
  tgtLang: string;
  pairs: { source: string; target: string; hypothesis: string }[];
}

const versionTag = (version: string): string => (version.startsWith('v') ? version : `v${version}`);
export const qualitySampleKey = (agentId: string, version: string): string => `agents/${agentId}/artifacts/quality-${versionTag(version)}.json`;
export const qualityModelKey = (agentId: string, version: string): string => `agents/${agentId}/artifacts/quality-${versionTag(version)}.bin`;

export async function storeQualitySample(
  storage: Pick<FileStorage, 'put'>,
  at: { agentId: string; version: string; srcLang: string; tgtLang: string },
  heldOut: readonly HeldOutTranslation[],
  model: AgentArtifacts,
): Promise<void> {
  const sample: QualitySample = {
    srcLang: at.srcLang,
    tgtLang: at.tgtLang,
    pairs: heldOut.slice(0, QUALITY_AB_MAX_PAIRS).map((t) => ({ source: t.source, target: t.target, hypothesis: t.hypothesis })),
  };
  await storage.put(qualityModelKey(at.agentId, at.version), encodeAgentArtifacts(model));
  await storage.put(qualitySampleKey(at.agentId, at.version), Buffer.from(JSON.stringify(sample), 'utf8'));
}

export function parseQualitySample(bytes: Uint8Array): QualitySample {
  return JSON.parse(Buffer.from(bytes).toString('utf8')) as QualitySample;
}

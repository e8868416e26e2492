/**
 * The learned artifact of one agent version: the serialized engine model (core memory, lexicons,
 * phrase tables, language models) and the serialized hybrid index of its pairs, in one blob so a
 * version is written atomically and a reader never sees a model without its index. Both parts are
 * engine artifact-codec containers (`MODL`, `INDX`), versioned on their own; legacy parts still load.
 * Layout: `GAIAART1`, u32 model length, u32 index length (little endian), model bytes, index bytes.
 */
export interface AgentArtifacts {
  model: Uint8Array;
  index: Uint8Array;
}

const MAGIC = 'GAIAART1';

export const artifactKey = (agentId: string, version: string): string => `agents/${agentId}/artifacts/${version.startsWith('v') ? version : `v${version}`}.bin`;

export function encodeAgentArtifacts(a: AgentArtifacts): Uint8Array {
  const out = new Uint8Array(16 + a.model.byteLength + a.index.byteLength);
  out.set(Buffer.from(MAGIC, 'ascii'), 0);
  const view = new DataView(out.buffer);
  view.setUint32(8, a.model.byteLength, true);
  view.setUint32(12, a.index.byteLength, true);
  out.set(a.model, 16);
  out.set(a.index, 16 + a.model.byteLength);
  return out;
}

export function decodeAgentArtifacts(bytes: Uint8Array): AgentArtifacts {
  if (bytes.byteLength < 16 || Buffer.from(bytes.subarray(0, 8)).toString('ascii') !== MAGIC) throw new Error('Not an agent artifact (bad magic)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const m = view.getUint32(8, true);
  const i = view.getUint32(12, true);
  if (16 + m + i !== bytes.byteLength) throw new Error('Corrupt agent artifact (lengths do not match)');
  // Views, not copies: the engine's artifact readers keep their sections in place (or copy a misaligned one).
  return { model: bytes.subarray(16, 16 + m), index: bytes.subarray(16 + m) };
}

/**
 * The learned artifact of one agent version: the serialized engine model (core memory, lexicons,
 * phrase tables, language models) and the serialized hybrid index of its pairs, in one blob so a
 * version is written atomically and a reader never sees a model without its index. Both parts are
 * engine artifact-codec containers (`MODL`, `INDX`), versioned on their own; legacy parts still load.
 * Layout: `GAIAART1`, u32 model length, u32 index length (little endian), model bytes, index bytes.
 */
import { modelWithinBytes } from '@gaia/engine';

export interface AgentArtifacts {
  model: Uint8Array;
  index: Uint8Array;
}

const MAGIC = 'GAIAART1';
/** The magic and the two parts' lengths. */
const HEADER_BYTES = 16;

export const artifactKey = (agentId: string, version: string): string => `agents/${agentId}/artifacts/${version.startsWith('v') ? version : `v${version}`}.bin`;

export function encodeAgentArtifacts(a: AgentArtifacts): Uint8Array {
  const out = new Uint8Array(HEADER_BYTES + a.model.byteLength + a.index.byteLength);
  out.set(Buffer.from(MAGIC, 'ascii'), 0);
  const view = new DataView(out.buffer);
  view.setUint32(8, a.model.byteLength, true);
  view.setUint32(12, a.index.byteLength, true);
  out.set(a.model, HEADER_BYTES);
  out.set(a.index, HEADER_BYTES + a.model.byteLength);
  return out;
}

/** Everything stored for an agent is at most this many times its pairs' UTF-8 text (issue #13, ADR 0010). */
export const STORED_TEXT_RATIO_MAX = 3;

/** The UTF-8 bytes of the pairs' texts (what the storage bound is a multiple of). */
export function pairsTextBytes(pairs: readonly { source: string; target: string }[]): number {
  let b = 0;
  for (const p of pairs) b += Buffer.byteLength(p.source) + Buffer.byteLength(p.target);
  return b;
}

/**
 * The artifacts within STORED_TEXT_RATIO_MAX × `textBytes`: as they are when they fit, else the model without what a load
 * derives again, then with its character LMs cut to the highest order that fits, or without them (`modelWithinBytes`;
 * the index and the rest of the model are what an agent cannot translate without).
 */
export function withinStoredBound(a: AgentArtifacts, textBytes: number): AgentArtifacts {
  return { model: modelWithinBytes(a.model, maxModelBytes(a, textBytes)), index: a.index };
}

/** Whether the artifacts are within the bound as they are (`withinStoredBound` would return them unchanged). */
export function fitsStoredBound(a: AgentArtifacts, textBytes: number): boolean {
  return a.model.byteLength <= maxModelBytes(a, textBytes);
}

function maxModelBytes(a: AgentArtifacts, textBytes: number): number {
  return Math.floor(STORED_TEXT_RATIO_MAX * textBytes) - HEADER_BYTES - a.index.byteLength;
}

export function decodeAgentArtifacts(bytes: Uint8Array): AgentArtifacts {
  if (bytes.byteLength < HEADER_BYTES || Buffer.from(bytes.subarray(0, 8)).toString('ascii') !== MAGIC) throw new Error('Not an agent artifact (bad magic)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const m = view.getUint32(8, true);
  const i = view.getUint32(12, true);
  if (HEADER_BYTES + m + i !== bytes.byteLength) throw new Error('Corrupt agent artifact (lengths do not match)');
  // Views, not copies: the engine's artifact readers keep their sections in place (or copy a misaligned one).
  return { model: bytes.subarray(HEADER_BYTES, HEADER_BYTES + m), index: bytes.subarray(HEADER_BYTES + m) };
}

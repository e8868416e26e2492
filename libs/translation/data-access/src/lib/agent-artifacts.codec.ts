import type { AgentArtifacts } from './agent-artifacts.port';

const MAGIC = 'GAIAART1';

/**
 * Default container of an agent artifact: `GAIAART1`, u32 model length, u32 index length (little
 * endian), then the serialized model and the serialized index. One blob, so a version is written
 * atomically (FileStorage.put) and readers never see a model without its index.
 */
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
  if (bytes.byteLength < 16 || Buffer.from(bytes.subarray(0, 8)).toString('ascii') !== MAGIC) {
    throw new Error('Not an agent artifact (bad magic)');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const m = view.getUint32(8, true);
  const i = view.getUint32(12, true);
  if (16 + m + i !== bytes.byteLength) throw new Error('Corrupt agent artifact (lengths do not match)');
  // Copies keep the typed-array views of the engine 8-byte aligned.
  return { model: bytes.slice(16, 16 + m), index: bytes.slice(16 + m) };
}

import { decodeAgentArtifacts, encodeAgentArtifacts } from './agent-artifacts.codec';

describe('agent artifact codec', () => {
  it('round-trips and rejects foreign or truncated blobs', () => {
    const a = { model: new Uint8Array([1, 2, 3]), index: new Uint8Array([9, 8]) };
    const bytes = encodeAgentArtifacts(a);
    expect(decodeAgentArtifacts(bytes)).toEqual(a);
    expect(() => decodeAgentArtifacts(bytes.subarray(0, bytes.length - 1))).toThrow('Corrupt');
    expect(() => decodeAgentArtifacts(new Uint8Array(20))).toThrow('bad magic');
  });
});

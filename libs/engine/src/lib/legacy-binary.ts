/**
 * Reader of the artifacts written before the artifact-codec container (magic, u32 header length, JSON
 * header, 8-byte aligned typed arrays). Kept so that stored agents keep loading; nothing writes it anymore.
 */

export type LegacyTypedArray = Int32Array | Uint32Array | Float32Array | Float64Array | Uint8Array | Uint16Array;
type Kind = 'i32' | 'u32' | 'f32' | 'f64' | 'u8' | 'u16';

const CTORS = { i32: Int32Array, u32: Uint32Array, f32: Float32Array, f64: Float64Array, u8: Uint8Array, u16: Uint16Array } as const;

export function unpackLegacyBinary<H>(magic: string, bytes: Uint8Array): { header: H; arrays: Record<string, LegacyTypedArray> } {
  const m = new TextDecoder().decode(bytes.subarray(0, 8)).trim();
  if (m !== magic.trim()) throw new Error(`not a ${magic.trim()} blob (found "${m}")`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hlen = dv.getUint32(8, true);
  const { header, layout } = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + hlen))) as {
    header: H;
    layout: { name: string; kind: Kind; len: number; off: number }[];
  };
  const start = Math.ceil((8 + 4 + hlen) / 8) * 8;
  const copy = new Uint8Array(bytes.byteLength - start);
  copy.set(bytes.subarray(start));
  const arrays: Record<string, LegacyTypedArray> = {};
  for (const l of layout) arrays[l.name] = new CTORS[l.kind](copy.buffer, l.off, l.len);
  return { header, arrays };
}

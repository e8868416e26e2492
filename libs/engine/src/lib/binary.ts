/**
 * A small container format: magic, u32 header length, JSON header, then 8-byte aligned typed-array blocks.
 * Loading copies nothing but the JSON header, so large indexes load fast.
 */

export type TypedArray = Int32Array | Uint32Array | Float32Array | Float64Array | Uint8Array | Uint16Array;
type Kind = 'i32' | 'u32' | 'f32' | 'f64' | 'u8' | 'u16';

function kindOf(a: TypedArray): Kind {
  if (a instanceof Int32Array) return 'i32';
  if (a instanceof Uint32Array) return 'u32';
  if (a instanceof Float32Array) return 'f32';
  if (a instanceof Float64Array) return 'f64';
  if (a instanceof Uint16Array) return 'u16';
  return 'u8';
}

function make(kind: Kind, buf: ArrayBuffer, off: number, len: number): TypedArray {
  switch (kind) {
    case 'i32':
      return new Int32Array(buf, off, len);
    case 'u32':
      return new Uint32Array(buf, off, len);
    case 'f32':
      return new Float32Array(buf, off, len);
    case 'f64':
      return new Float64Array(buf, off, len);
    case 'u16':
      return new Uint16Array(buf, off, len);
    default:
      return new Uint8Array(buf, off, len);
  }
}

export function packBinary(magic: string, header: unknown, arrays: Record<string, TypedArray>): Uint8Array {
  const names = Object.keys(arrays);
  const layout: { name: string; kind: Kind; len: number; off: number }[] = [];
  let off = 0;
  for (const name of names) {
    const a = arrays[name];
    layout.push({ name, kind: kindOf(a), len: a.length, off });
    off += Math.ceil(a.byteLength / 8) * 8;
  }
  const headBytes = new TextEncoder().encode(JSON.stringify({ header, layout }));
  const magicBytes = new TextEncoder().encode(magic.padEnd(8, ' ').slice(0, 8));
  const start = Math.ceil((8 + 4 + headBytes.length) / 8) * 8;
  const out = new Uint8Array(start + off);
  out.set(magicBytes, 0);
  new DataView(out.buffer).setUint32(8, headBytes.length, true);
  out.set(headBytes, 12);
  for (const l of layout) {
    const a = arrays[l.name];
    out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), start + l.off);
  }
  return out;
}

export function unpackBinary<H>(magic: string, bytes: Uint8Array): { header: H; arrays: Record<string, TypedArray> } {
  const m = new TextDecoder().decode(bytes.subarray(0, 8)).trim();
  if (m !== magic.trim()) throw new Error(`not a ${magic.trim()} blob (found "${m}")`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hlen = dv.getUint32(8, true);
  const { header, layout } = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + hlen))) as {
    header: H;
    layout: { name: string; kind: Kind; len: number; off: number }[];
  };
  const start = Math.ceil((8 + 4 + hlen) / 8) * 8;
  // copy the payload once into an aligned buffer (Node Buffers may be unaligned)
  let buf: ArrayBuffer;
  let base: number;
  if ((bytes.byteOffset + start) % 8 === 0 && bytes.buffer instanceof ArrayBuffer) {
    buf = bytes.buffer;
    base = bytes.byteOffset + start;
  } else {
    const copy = new Uint8Array(bytes.byteLength - start);
    copy.set(bytes.subarray(start));
    buf = copy.buffer;
    base = 0;
  }
  const arrays: Record<string, TypedArray> = {};
  for (const l of layout) arrays[l.name] = make(l.kind, buf, base + l.off, l.len);
  return { header, arrays };
}

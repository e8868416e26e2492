import { ArtifactFormatError, ArtifactReader, ArtifactWriter, CODEC_VERSION } from './artifact-codec';

describe('artifact codec', () => {
  const write = () =>
    new ArtifactWriter('TEST', 7)
      .meta('stats', { pairs: 3 })
      .raw('raw', new Float64Array([1.5, -2]))
      .uints('small', [0, 3, 255])
      .uints('wide', [0, 70000, 5])
      .offsets('offsets', [0, 2, 2, 300, 100000])
      .sortedKeys('keys', new Float64Array([3, 2 ** 40, 2 ** 52 + 1]))
      .quantized('scores', new Float32Array([-12.5, -0.25, 0, -Infinity, NaN]))
      .strings('words', ['', 'ñandú', "mba'e", 'a']);

  it('reads back every section type with the kind, schema and metadata it was written with', () => {
    const r = ArtifactReader.open(write().finish(), 'TEST');
    expect([r.kind, r.schema]).toEqual(['TEST', 7]);
    expect(r.meta('stats')).toEqual({ pairs: 3 });
    expect(Array.from(r.raw<Float64Array>('raw'))).toEqual([1.5, -2]);
    expect(Array.from(r.int32('small'))).toEqual([0, 3, 255]);
    expect(Array.from(r.int32('wide'))).toEqual([0, 70000, 5]);
    expect(Array.from(r.int32('offsets'))).toEqual([0, 2, 2, 300, 100000]);
    expect(Array.from(r.float64('keys'))).toEqual([3, 2 ** 40, 2 ** 52 + 1]);
    const q = r.float32('scores');
    expect(q[0]).toBeCloseTo(-12.5, 3);
    expect(q[1]).toBeCloseTo(-0.25, 3);
    expect(q[2]).toBeCloseTo(0, 3);
    expect(q[3]).toBe(-Infinity);
    expect(q[4]).toBeNaN();
    const words = r.strings('words');
    expect(words.get(1)).toBe('ñandú');
    expect(words.toArray()).toEqual(['', 'ñandú', "mba'e", 'a']);
    expect(r.has('words')).toBe(true);
    expect(r.has('added-later')).toBe(false);
  });

  it('reads sections in place from a buffer that does not start at an aligned offset', () => {
    const bytes = write().finish();
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    const r = ArtifactReader.open(shifted.subarray(3), 'TEST');
    expect(Array.from(r.raw<Float64Array>('raw'))).toEqual([1.5, -2]);
    expect(Array.from(r.int32('wide'))).toEqual([0, 70000, 5]);
  });

  it('rejects other kinds, other container versions, legacy blobs and big tables in the metadata', () => {
    const bytes = write().finish();
    expect(() => ArtifactReader.open(bytes, 'MODL')).toThrow(ArtifactFormatError);
    const newer = bytes.slice();
    new DataView(newer.buffer).setUint16(8, CODEC_VERSION + 1, true);
    expect(() => ArtifactReader.open(newer, 'TEST')).toThrow(/container version/);
    expect(ArtifactReader.is(new TextEncoder().encode('GAIAMDL1________'))).toBe(false);
    expect(() =>
      new ArtifactWriter('TEST', 1)
        .meta(
          'words',
          Array.from({ length: 20000 }, (_, i) => `w${i}`),
        )
        .finish(),
    ).toThrow(/directory too large/);
    expect(() => new ArtifactWriter('TEST', 1).uints('x', [-1])).toThrow();
    expect(() => new ArtifactWriter('TEST', 1).offsets('x', [2, 1])).toThrow();
    // offsets whose differences fit 1, 2 or 4 bytes, stored as they are or deflated, read back as written
    for (const step of [1, 300, 70000])
      for (const n of [10, 5000]) {
        const offs: number[] = [];
        for (let i = 0, o = 0; i < n; i++) offs.push((o += (i % 3) * step));
        const r = ArtifactReader.open(new ArtifactWriter('TEST', 1).offsets('o', offs).finish(), 'TEST');
        expect(Array.from(r.int32('o'))).toEqual(offs);
      }
  });

  it('stores big compressible sections deflated (wide values as byte planes) and reads them back exactly', () => {
    const n = 50000;
    const ids = Array.from({ length: n }, (_, i) => (i * 7) % 40000);
    const counts = Array.from({ length: n }, (_, i) => (i % 13 === 0 ? 3 : 1));
    const scores = Float32Array.from({ length: n }, (_, i) => -((i * 37) % 101) / 10);
    const vec = Int16Array.from({ length: n }, (_, i) => ((i * 2654435761) % 65536) - 32768);
    const bytes = new ArtifactWriter('TEST', 1).uints('ids', ids).uints('counts', counts).quantized('scores', scores).raw('vec', vec).finish();
    expect(bytes.byteLength).toBeLessThan(5 * n); // 7n stored as they are
    const r = ArtifactReader.open(bytes, 'TEST');
    expect(Array.from(r.int32('ids'))).toEqual(ids);
    expect(Array.from(r.int32('counts'))).toEqual(counts);
    const q = r.float32('scores');
    scores.forEach((v, i) => expect(q[i]).toBeCloseTo(v, 3));
    expect(Array.from(r.raw<Int16Array>('vec'))).toEqual(Array.from(vec));
  });

  it('still reads a version 2 container (the same layout, nothing deflated)', () => {
    const bytes = new ArtifactWriter('TEST', 1).uints('small', [0, 3, 255]).strings('words', ['ñandú']).finish();
    new DataView(bytes.buffer).setUint16(8, 2, true);
    const r = ArtifactReader.open(bytes, 'TEST');
    expect(Array.from(r.int32('small'))).toEqual([0, 3, 255]);
    expect(r.strings('words').get(0)).toBe('ñandú');
    new DataView(bytes.buffer).setUint16(8, 1, true);
    expect(() => ArtifactReader.open(bytes, 'TEST')).toThrow(/container version/);
  });

  it('stores interleaved quantized rows column after column and reads them back interleaved, value for value', () => {
    const rows = Float32Array.from({ length: 4 * 3000 }, (_, i) => (i % 4 === 0 ? -(i % 7) : -((i * 13) % 97) / 7));
    rows[5] = -Infinity;
    const r = ArtifactReader.open(new ArtifactWriter('TEST', 1).quantized('rows', rows).quantizedColumns('cols', rows, 4).finish(), 'TEST');
    expect(Array.from(r.float32('cols', 4))).toEqual(Array.from(r.float32('rows')));
    expect(() => new ArtifactWriter('TEST', 1).quantizedColumns('x', new Float32Array(5), 4)).toThrow(/rows of 4/);
  });

  it('extracts named sections into a container of their own with the kind, schema and metadata', () => {
    const r = ArtifactReader.open(write().finish(), 'TEST');
    const part = r.extract(['wide', 'words', 'not-there']);
    expect([part.kind, part.schema, part.meta('stats')]).toEqual(['TEST', 7, { pairs: 3 }]);
    expect(Array.from(part.int32('wide'))).toEqual([0, 70000, 5]);
    expect(part.strings('words').toArray()).toEqual(['', 'ñandú', "mba'e", 'a']);
    expect(part.has('raw')).toBe(false);
    expect(part.byteLength).toBeLessThan(r.byteLength);
    expect(r.decodedBytes(['wide', 'not-there'])).toBe(12);
  });

  it('decodes a whole string table like string by string (multi-byte characters, a leading byte-order mark dropped)', () => {
    const list = ["\ufeffmba'e", 'ñandú', '𝄞x', '', 'a\ufeffb', '\ufeff\ufeffc', 'ĩ'];
    const words = ArtifactReader.open(new ArtifactWriter('TEST', 1).strings('w', list).finish(), 'TEST').strings('w');
    const one = ArtifactReader.open(new ArtifactWriter('TEST', 1).strings('w', list).finish(), 'TEST').strings('w');
    expect(words.toArray()).toEqual(list.map((_, i) => one.get(i)));
    expect(words.toArray()[0]).toBe("mba'e");
    // read whole without the table (a vocabulary at load): the same strings, also from a deflated section
    const long = Array.from({ length: 3000 }, (_, i) => list[i % list.length] + (i % 13 ? 'ñ'.repeat(i % 5) : ''));
    for (const l of [list, long]) {
      const r = ArtifactReader.open(new ArtifactWriter('TEST', 1).strings('w', l).finish(), 'TEST');
      expect(r.stringArray('w')).toEqual(r.strings('w').toArray());
    }
  });
});

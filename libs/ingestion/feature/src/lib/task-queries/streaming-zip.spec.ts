import { randomFillSync } from 'node:crypto';
import { unzipSync } from 'fflate';
import { StreamingZip } from './streaming-zip';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);
const concat = (chunks: Uint8Array[]) => new Uint8Array(Buffer.concat(chunks));

describe('StreamingZip', () => {
  it('writes entries whose bytes or text come in chunks into a zip any reader opens, in the order they were opened', () => {
    const zip = new StreamingZip(6);
    const out: Uint8Array[] = [];
    const a = zip.entry('originals/a.txt');
    a.write(enc('hello '));
    a.write('world');
    a.end();
    // two entries written from one pass: the second's bytes wait until the first ends
    const jsonl = zip.entry('pairs.jsonl');
    const tmx = zip.entry('pairs.tmx');
    for (const w of ['uno', 'dos']) {
      jsonl.write(`${w}\n`);
      tmx.write(`<seg>${w}</seg>\n`);
    }
    jsonl.end();
    tmx.end();
    zip.end();
    out.push(...zip.take());
    const files = unzipSync(concat(out));
    expect(Object.keys(files)).toEqual(['originals/a.txt', 'pairs.jsonl', 'pairs.tmx']);
    expect(dec(files['originals/a.txt'])).toBe('hello world');
    expect(dec(files['pairs.jsonl'])).toBe('uno\ndos\n');
    expect(dec(files['pairs.tmx'])).toBe('<seg>uno</seg>\n<seg>dos</seg>\n');
  });

  it('hands over the archive as it is written: what it holds stays near one chunk, not the whole file', () => {
    const zip = new StreamingZip(1);
    const file = zip.entry('originals/big.bin');
    // 24 chunks of 1 MiB of incompressible bytes (24 MiB in all)
    const chunk = new Uint8Array(1024 * 1024);
    let written = 0;
    let largestHeld = 0;
    for (let i = 0; i < 24; i++) {
      file.write(randomFillSync(chunk));
      const taken = zip.take().reduce((n, c) => n + c.length, 0);
      written += taken;
      largestHeld = Math.max(largestHeld, taken);
    }
    file.end();
    zip.end();
    written += zip.take().reduce((n, c) => n + c.length, 0);
    expect(written).toBeGreaterThan(24 * 1024 * 1024);
    expect(largestHeld).toBeLessThan(2 * 1024 * 1024);
  });

  it('reports a misuse as an error on take (an entry added after the end)', () => {
    const zip = new StreamingZip(6);
    zip.end();
    zip.entry('late.txt');
    expect(() => zip.take()).toThrow();
  });
});

import { Zip, ZipDeflate } from 'fflate';

/** One file of a StreamingZip: its bytes (or UTF-8 text) written in order, then `end`. */
export interface ZipEntryWriter {
  write(data: Uint8Array | string): void;
  end(): void;
}

const EMPTY = new Uint8Array(0);
/** Text written to an entry is compressed in batches of about this many characters (not line by line). */
const TEXT_BATCH_CHARS = 64 * 1024;

/**
 * A zip written as its entries' bytes come (fflate's streaming Zip, DEFLATE at `level`), so an archive larger than memory
 * can be built from streamed sources: after each write, `take` hands over the archive bytes produced so far. Entries come
 * out in the order they were opened; the bytes of an entry opened while an earlier one is still open wait, compressed,
 * until the earlier ones end (e.g. two files written from one pass over the same rows).
 */
export class StreamingZip {
  private readonly zip: Zip;
  private ready: Uint8Array[] = [];
  private failure: Error | null = null;

  constructor(private readonly level: 6 | 9 | 1) {
    this.zip = new Zip((err, data) => {
      if (err) this.failure ??= err;
      else this.ready.push(data);
    });
  }

  entry(name: string): ZipEntryWriter {
    const file = new ZipDeflate(name, { level: this.level });
    this.zip.add(file);
    const encoder = new TextEncoder();
    let text: string[] = [];
    let textChars = 0;
    const flushText = () => {
      if (!textChars) return;
      file.push(encoder.encode(text.join('')), false);
      text = [];
      textChars = 0;
    };
    return {
      write: (data) => {
        if (typeof data !== 'string') {
          flushText();
          file.push(data, false);
          return;
        }
        text.push(data);
        textChars += data.length;
        if (textChars >= TEXT_BATCH_CHARS) flushText();
      },
      end: () => {
        flushText();
        file.push(EMPTY, true);
      },
    };
  }

  /** Ends the archive (every entry must have ended): its central directory is then ready to `take`. */
  end(): void {
    this.zip.end();
  }

  /** The archive bytes produced since the last call, in order. */
  take(): Uint8Array[] {
    if (this.failure) throw this.failure;
    const out = this.ready;
    this.ready = [];
    return out;
  }
}

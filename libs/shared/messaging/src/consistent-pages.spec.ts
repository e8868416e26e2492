import { CONSISTENT_PAGES_READS, readConsistentPages, type VersionedPage } from './consistent-pages';

type Page = VersionedPage & { items: string[] };

/**
 * A paged listing as the agents service answers it: `items` split into pages of `size`, each page carrying the
 * version the listing has when it is read; `edit(n)` runs before the n-th page read (counting every read from 0).
 */
function listing(items: string[], size: number, edit: (reads: number, state: { version: number; items: string[] }) => void = () => undefined) {
  const state = { version: 1, items: [...items] };
  let reads = 0;
  const read = async (cursor: string | null): Promise<Page> => {
    edit(reads++, state);
    const from = cursor === null ? 0 : Number(cursor);
    const to = from + size;
    return { version: state.version, items: state.items.slice(from, to), next: to < state.items.length ? String(to) : null };
  };
  return { read, reads: () => reads };
}

const conflict = (): Error => new Error('changed during the read');
const itemsOf = (pages: Page[]): string[] => pages.flatMap((p) => p.items);

describe('readConsistentPages', () => {
  it('answers the one page of a short listing', async () => {
    const l = listing(['a', 'b'], 5);
    expect(itemsOf(await readConsistentPages(l.read, { conflict }))).toEqual(['a', 'b']);
    expect(l.reads()).toBe(1);
  });

  it('answers every page, in order, until `next` is null', async () => {
    const l = listing(['a', 'b', 'c', 'd', 'e'], 2);
    expect(itemsOf(await readConsistentPages(l.read, { conflict }))).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(l.reads()).toBe(3);
  });

  it('starts over when the version changes between two pages and answers the pages of one version only', async () => {
    // before the second page: 'a' is deleted (the version changes), so the page after it would skip 'c'
    const l = listing(['a', 'b', 'c', 'd'], 2, (n, s) => {
      if (n === 1) {
        s.items = s.items.slice(1);
        s.version++;
      }
    });
    const pages = await readConsistentPages(l.read, { conflict });
    expect(itemsOf(pages)).toEqual(['b', 'c', 'd']);
    expect(new Set(pages.map((p) => p.version))).toEqual(new Set([2]));
    expect(l.reads()).toBe(4); // 2 of the first read (the second inconsistent), 2 of the second
  });

  it("throws the caller's conflict error when every read sees a change, after CONSISTENT_PAGES_READS reads", async () => {
    const l = listing(['a', 'b', 'c'], 1, (n, s) => {
      if (n % 2 === 1) s.version++;
    });
    await expect(readConsistentPages(l.read, { conflict })).rejects.toThrow('changed during the read');
    expect(l.reads()).toBe(2 * CONSISTENT_PAGES_READS);
  });

  it('reads at most `reads` times when given', async () => {
    const l = listing(['a', 'b'], 1, (n, s) => {
      if (n % 2 === 1) s.version++;
    });
    await expect(readConsistentPages(l.read, { conflict, reads: 1 })).rejects.toThrow('changed during the read');
    expect(l.reads()).toBe(2);
  });

  it('stops after the page `complete` accepts (the rest of the listing is not needed)', async () => {
    const l = listing(['a', 'b', 'stop', 'c', 'd'], 1);
    const pages = await readConsistentPages(l.read, { conflict, complete: (p) => p.items.includes('stop') });
    expect(itemsOf(pages)).toEqual(['a', 'b', 'stop']);
    expect(l.reads()).toBe(3);
  });

  it('refuses a read count below one', async () => {
    await expect(readConsistentPages(listing([], 1).read, { conflict, reads: 0 })).rejects.toThrow(RangeError);
  });
});

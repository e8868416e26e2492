/** A page of a paged listing (an RPC answer): the listing's version when the page was read, and where the next page starts. */
export interface VersionedPage {
  version: number;
  /** Cursor of the next page; null on the last page. */
  next: string | null;
}

/** Reads of a listing before giving up when it keeps changing under the read (each read starts from the first page). */
export const CONSISTENT_PAGES_READS = 3;

export interface ConsistentPagesOptions<P extends VersionedPage> {
  /** The caller's error when every read saw the listing change (e.g. a DomainError.conflict, or an Error the caller handles). */
  conflict: () => Error;
  /** Reads at most (default CONSISTENT_PAGES_READS). */
  reads?: number;
  /** True when the read needs nothing after this page (e.g. the corrections are done and the glossary pages follow). */
  complete?: (page: P) => boolean;
}

/**
 * Reads a paged listing page after page (`readPage(null)` first, then with each page's `next`) until one complete set
 * of pages of one version: when the version changes between two pages, the read starts over from the first page (a
 * page continues after the last row of the one before: once that row is deleted or moved, the pages left would miss
 * rows or repeat them). After `reads` reads that all saw a change, throws `conflict()`. Answers the pages in order.
 */
export async function readConsistentPages<P extends VersionedPage>(
  readPage: (cursor: string | null) => Promise<P>,
  options: ConsistentPagesOptions<P>,
): Promise<P[]> {
  const reads = options.reads ?? CONSISTENT_PAGES_READS;
  if (!Number.isInteger(reads) || reads < 1) throw new RangeError(`reads must be a positive integer (got ${reads})`);
  for (let read = 0; read < reads; read++) {
    const pages: P[] = [await readPage(null)];
    let page = pages[0];
    let consistent = true;
    while (page.next !== null && !options.complete?.(page)) {
      page = await readPage(page.next);
      if (page.version !== pages[0].version) {
        consistent = false;
        break;
      }
      pages.push(page);
    }
    if (consistent) return pages;
  }
  throw options.conflict();
}

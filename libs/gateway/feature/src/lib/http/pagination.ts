import { PAGE_SIZE_MAX } from '@gaia/contracts';
import { DomainError } from '@gaia/shared/kernel';

/** A page request: at most `limit` items after the item `afterId` (keyset: newest first, then id). */
export interface PageRequest {
  limit: number;
  afterId: string | null;
}

const CURSOR_VERSION = 1;

/** `next_cursor` of a page: opaque (base64url), null on the last page. */
export function encodeCursor(afterId: string | null): string | null {
  return afterId === null ? null : Buffer.from(JSON.stringify({ v: CURSOR_VERSION, after: afterId })).toString('base64url');
}

/** Reads `limit` (1..PAGE_SIZE_MAX, default PAGE_SIZE_MAX) and `cursor` of a list's query; 400 naming the parameter otherwise. */
export function parsePage(query: { limit?: unknown; cursor?: unknown }): PageRequest {
  let limit = PAGE_SIZE_MAX;
  if (query.limit !== undefined && query.limit !== '') {
    limit = Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_SIZE_MAX)
      throw DomainError.invalid(`limit must be an integer from 1 to ${PAGE_SIZE_MAX}.`, 'invalid_limit');
  }
  let afterId: string | null = null;
  if (typeof query.cursor === 'string' && query.cursor) {
    try {
      const c = JSON.parse(Buffer.from(query.cursor, 'base64url').toString('utf8')) as { v?: unknown; after?: unknown };
      if (c.v !== CURSOR_VERSION || typeof c.after !== 'string' || !c.after) throw new Error('shape');
      afterId = c.after;
    } catch {
      throw DomainError.invalid('cursor is invalid: pass the next_cursor of the previous page.', 'invalid_cursor');
    }
  }
  return { limit, afterId };
}

/** The page of `limit + 1` fetched items: the first `limit`, and the cursor after the last one when more exist. */
export function pageOf<T>(items: T[], limit: number, idOf: (item: T) => string): { items: T[]; nextCursor: string | null } {
  const page = items.slice(0, limit);
  return { items: page, nextCursor: items.length > limit && page.length ? encodeCursor(idOf(page[page.length - 1])) : null };
}

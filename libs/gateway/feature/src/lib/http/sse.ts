import type { Response } from 'express';

/** One Server-Sent Events frame carrying `event` as JSON. */
export const sseFrame = (event: object): string => `data: ${JSON.stringify(event)}\n\n`;

/**
 * Commits the answer to `text/event-stream` (200, no caching or proxy buffering) and sends the headers. Callers
 * open it on their first event, so a refusal before it is still a JSON error with its status.
 */
export function openSse(res: Response): void {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
}

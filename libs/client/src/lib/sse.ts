/**
 * The JSON objects of a `text/event-stream` body (`data: {json}` lines, events separated by a blank line),
 * as they arrive. A line that is not JSON is skipped (reported to `onInvalid`) and the stream goes on.
 */
export async function* parseSse<T>(body: ReadableStream<Uint8Array>, onInvalid?: (line: string) => void): AsyncGenerator<T> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const eventsOf = function* (block: string): Generator<T> {
    const data = block
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n');
    if (!data) return;
    try {
      yield JSON.parse(data) as T;
    } catch {
      onInvalid?.(data);
    }
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: RegExpExecArray | null;
      while ((end = /\r?\n\r?\n/.exec(buffer))) {
        const block = buffer.slice(0, end.index);
        buffer = buffer.slice(end.index + end[0].length);
        yield* eventsOf(block);
      }
    }
    buffer += decoder.decode();
    if (buffer.trim()) yield* eventsOf(buffer);
  } finally {
    // Stopping early (break in for await) cancels the response, which cancels the translation server-side.
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

import { OpenAiDouble } from './openai-double';

/** The double's own protocol checks, with plain fetch (what any OpenAI client sees on the wire). */
describe('OpenAiDouble', () => {
  let double: OpenAiDouble;
  beforeAll(async () => {
    double = await OpenAiDouble.start();
  });
  afterAll(() => double.close());
  beforeEach(() => double.reset());

  const post = (body: unknown, path = '/chat/completions') =>
    fetch(`${double.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('streams chat.completion.chunk lines, usage in the last chunk, then [DONE]', async () => {
    double.enqueue({ kind: 'stream', tokens: ['a', 'b'], usage: { prompt_tokens: 7, completion_tokens: 2 } });
    const res = await post({ model: 'm', messages: [], stream: true, stream_options: { include_usage: true } });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const lines = (await res.text()).split('\n\n').filter(Boolean);
    expect(lines.at(-1)).toBe('data: [DONE]');
    const chunks = lines.slice(0, -1).map((l) => JSON.parse(l.replace(/^data: /, '')));
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? null)).toEqual(['', 'a', 'b', null, null]);
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } });
    expect(double.requests[0].body.stream).toBe(true);
  });

  it('answers n choices in non-stream mode and scripted errors with Retry-After', async () => {
    double.enqueue({ kind: 'json', choices: ['x', 'y'] }, { kind: 'error', status: 429, retryAfter: '3' });
    const ok = await (await post({ model: 'm', messages: [{ role: 'user', content: 'one two' }], n: 3 })).json();
    expect(ok.choices.map((c: any) => c.message.content)).toEqual(['x', 'y', 'x']);
    expect(ok.usage).toEqual({ prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 });
    const limited = await post({ model: 'm', messages: [] });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect((await limited.json()).error.type).toBe('rate_limit_exceeded');
  });

  it('cuts a stream off without [DONE]', async () => {
    double.enqueue({ kind: 'stream', tokens: ['a', 'b', 'c'], cutAfter: 1 });
    const res = await post({ model: 'm', messages: [], stream: true });
    await expect(res.text()).rejects.toThrow();
  });
});

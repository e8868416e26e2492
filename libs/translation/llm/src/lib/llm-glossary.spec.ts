import { OpenAiDouble } from '@gaia/testing';
import { checkGlossary, matchGlossary, nearestExamples, type RequestFeedback } from './glossary';
import type { LlmTranslationEngine } from './llm-translation.engine';
import { collect, fixtureAgent, llmEngineOn } from './test-agent.fixture';
import type { EngineEvent } from './translation-engine.port';

const complete = (events: EngineEvent[]) => events.find((e) => e.type === 'translation_complete') as Extract<EngineEvent, { type: 'translation_complete' }>;

describe('glossary matching', () => {
  it('finds whole-word terms (case-insensitive unless case-sensitive), longest first, as the text writes them', () => {
    const glossary = [
      { term: 'casa', translation: 'óga', caseSensitive: false },
      { term: 'casa grande', translation: 'óga guasu', caseSensitive: false },
      { term: 'Sol', translation: 'Kuarahy', caseSensitive: true },
      { term: 'río', translation: 'ysyry', caseSensitive: false },
    ];
    expect(matchGlossary('La Casa Grande y el sol; casamiento', glossary)).toEqual([
      { term: 'Casa Grande', translation: 'óga guasu', caseSensitive: false },
      { term: 'Casa', translation: 'óga', caseSensitive: false },
    ]);
    expect(
      checkGlossary('Pe ÓGA guasu', [
        { term: 'casa grande', translation: 'óga guasu', caseSensitive: false },
        { term: 'río', translation: 'ysyry', caseSensitive: false },
      ]),
    ).toEqual({
      applied: [{ term: 'casa grande', translation: 'óga guasu' }],
      missing: [{ term: 'río', translation: 'ysyry', caseSensitive: false }],
    });
  });

  it('orders corrections by word overlap and leaves out those sharing no word', () => {
    const ex = [
      { id: '1', source: 'el perro come', target: 'jagua okaru' },
      { id: '2', source: 'buenos días', target: 'mba’éichapa' },
      { id: '3', source: 'el perro come carne', target: 'jagua okaru so’o' },
    ];
    expect(nearestExamples('El perro come carne.', ex, 8).map((e) => e.id)).toEqual(['3', '1']);
  });
});

describe('LLM engine with the owner feedback (OpenAI wire double)', () => {
  let double: OpenAiDouble;
  let engine: LlmTranslationEngine;
  beforeAll(async () => {
    double = await OpenAiDouble.start();
  });
  afterAll(() => double.close());
  beforeEach(() => {
    double.reset();
    engine = llmEngineOn(double.baseUrl, 2).engine;
  });

  const feedback: RequestFeedback = {
    glossary: [{ term: 'che róga', translation: 'mi hogar', caseSensitive: false }],
    examples: [{ id: 'c1', source: 'che róga porã', target: 'mi hogar hermoso' }],
  };

  it('puts the required terms and the corrections in both prompts and reports the applied terms', async () => {
    double.enqueue(
      { kind: 'json', choices: ['mi hogar grande', 'mi casa grande'], usage: { prompt_tokens: 10, completion_tokens: 4 } },
      { kind: 'stream', tokens: ['mi', ' hogar', ' grande'], usage: { prompt_tokens: 20, completion_tokens: 3 } },
    );
    const events = await collect(engine.translate({ text: 'che róga guasu', direction: 'forward', agent: fixtureAgent(), feedback }));
    expect(double.chatRequests).toHaveLength(2);
    for (const r of double.chatRequests) {
      const user = r.body.messages[1].content as string;
      expect(user).toContain('Required terminology');
      expect(user).toContain('- che róga → mi hogar');
      expect(user).toContain('Corrections by the agent owner');
      expect(user).toContain('che róga porã\n   spanish: mi hogar hermoso');
    }
    expect(complete(events)).toMatchObject({ final_translation: 'mi hogar grande', applied_terms: [{ term: 'che róga', translation: 'mi hogar' }] });
  });

  it('repairs once when the refined translation misses a required term; a failed repair reports no term', async () => {
    double.enqueue(
      { kind: 'json', choices: ['mi casa grande'], usage: { prompt_tokens: 10, completion_tokens: 4 } },
      { kind: 'stream', tokens: ['mi casa grande'], usage: { prompt_tokens: 20, completion_tokens: 3 } },
      { kind: 'json', choices: ['mi hogar grande'], usage: { prompt_tokens: 30, completion_tokens: 3 } },
    );
    const repaired = complete(await collect(engine.translate({ text: 'che róga guasu', direction: 'forward', agent: fixtureAgent(), feedback })));
    expect(double.chatRequests).toHaveLength(3);
    expect(double.chatRequests[2].body.messages[1].content).toContain('Required terms missing from the translation:\n- che róga → mi hogar');
    expect(repaired).toMatchObject({ final_translation: 'mi hogar grande', applied_terms: [{ term: 'che róga', translation: 'mi hogar' }] });
    expect(repaired.usage).toEqual({ input_tokens: 60, output_tokens: 10 });

    double.reset();
    double.enqueue(
      { kind: 'json', choices: ['mi casa grande'], usage: { prompt_tokens: 10, completion_tokens: 4 } },
      { kind: 'stream', tokens: ['mi casa grande'], usage: { prompt_tokens: 20, completion_tokens: 3 } },
      { kind: 'json', choices: ['mi casa enorme'], usage: { prompt_tokens: 30, completion_tokens: 3 } },
    );
    const unrepaired = complete(await collect(engine.translate({ text: 'che róga guasu', direction: 'forward', agent: fixtureAgent(), feedback })));
    expect(unrepaired).toMatchObject({ final_translation: 'mi casa grande', applied_terms: [] });
  });

  it('answers an identical request with the correction, without calling the LLM', async () => {
    const events = await collect(engine.translate({ text: 'Che róga porã', direction: 'forward', agent: fixtureAgent(), feedback }));
    expect(double.chatRequests).toHaveLength(0);
    expect(complete(events)).toMatchObject({
      final_translation: 'mi hogar hermoso',
      confidence: 1,
      applied_terms: [{ term: 'che róga', translation: 'mi hogar' }],
    });
  });
});

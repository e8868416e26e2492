import { z } from 'zod';

/**
 * Quality report of an agent version (issue #14): scores of the version's held-out pairs translated by a model
 * learned without them, and the spec's resource-size category from the pair count. Confidence and explanation
 * of an answer (`translation_complete`, the JSON answer).
 */

/** Spec §9 resource-size categories, by parallel sentence count. */
export const RESOURCE_SIZE_CATEGORIES = ['no-resource', 'tiny', 'very-low', 'low', 'medium', 'high'] as const;
export type ResourceSizeCategory = (typeof RESOURCE_SIZE_CATEGORIES)[number];

/** Lower bounds (pairs) of the categories after no-resource (spec: tiny under 10K; very-low 10K–100K; low 100K–1M; medium 1M–10M; high over 10M). */
export const RESOURCE_SIZE_THRESHOLDS: readonly { category: ResourceSizeCategory; from: number }[] = [
  { category: 'tiny', from: 1 },
  { category: 'very-low', from: 10_000 },
  { category: 'low', from: 100_000 },
  { category: 'medium', from: 1_000_000 },
  { category: 'high', from: 10_000_001 },
];

/** The resource-size category of an agent with `pairCount` parallel sentences (0: no-resource). */
export function resourceSizeCategory(pairCount: number): ResourceSizeCategory {
  let category: ResourceSizeCategory = 'no-resource';
  for (const t of RESOURCE_SIZE_THRESHOLDS) if (pairCount >= t.from) category = t.category;
  return category;
}

/** The held-out share of the pairs, its bounds, and the smallest agent that is measured at all. */
export const QUALITY_HOLDOUT_SHARE = 0.05;
export const QUALITY_HOLDOUT_MIN = 20;
export const QUALITY_HOLDOUT_MAX = 500;
export const QUALITY_MIN_PAIRS = 200;
/** Versions listed in an agent's quality history (newest last). */
export const QUALITY_HISTORY_MAX = 20;

/** Scores of one engine on the held-out pairs (0..1; margin may be negative). */
export const qualityScoresSchema = z.object({
  /** Corpus chrF (β = 2, sacreBLEU definition, as bench/ measures). */
  chrf: z.number(),
  /** Corpus BLEU (13a-style tokens, 4-grams, brevity penalty). */
  bleu: z.number(),
  /** Specificity margin: chrF against the aligned references minus the mean chrF against them shuffled with 5 fixed seeds. */
  margin: z.number(),
});
export type QualityScores = z.infer<typeof qualityScoresSchema>;

/** What the learning run measured (retrieval.agent-learned.v1 `quality`). `measured: false`: too small to measure. */
export const learnedQualitySchema = z.object({
  measured: z.boolean(),
  heldOut: z.number().int().nonnegative(),
  scores: qualityScoresSchema.nullable(),
  /** Learning the held-out model and translating the held-out pairs, ms. */
  evaluationMs: z.number().nonnegative(),
});
export type LearnedQuality = z.infer<typeof learnedQualitySchema>;

/** The LLM engine on the same held-out pairs (A/B), measured after the build; null until measured or when no LLM is configured. */
export const qualityAbSchema = z.object({
  builtin: qualityScoresSchema,
  llm: qualityScoresSchema,
  /** Held-out pairs compared (bounded: at most QUALITY_AB_MAX_PAIRS). */
  pairs: z.number().int().nonnegative(),
  created_at: z.string(),
});
export type QualityAb = z.infer<typeof qualityAbSchema>;
export const QUALITY_AB_MAX_PAIRS = 50;

/** One version's quality in an agent's history. */
export const qualityHistoryEntrySchema = z.object({
  version: z.string().max(64),
  chrf: z.number().nullable(),
  bleu: z.number().nullable(),
  margin: z.number().nullable(),
  held_out: z.number().int().nonnegative(),
  pair_count: z.number().int().nonnegative(),
  created_at: z.string(),
});
export type QualityHistoryEntry = z.infer<typeof qualityHistoryEntrySchema>;

/** `quality` of an agent's API record: the current version's report and the history across versions. */
export const agentQualitySchema = z.object({
  version: z.string().max(64),
  /** False when the agent had fewer than QUALITY_MIN_PAIRS pairs: too small to measure (scores null). */
  measured: z.boolean(),
  chrf: z.number().nullable(),
  bleu: z.number().nullable(),
  margin: z.number().nullable(),
  held_out: z.number().int().nonnegative(),
  pair_count: z.number().int().nonnegative(),
  category: z.enum(RESOURCE_SIZE_CATEGORIES),
  created_at: z.string(),
  ab: qualityAbSchema.nullable(),
  history: z.array(qualityHistoryEntrySchema).max(QUALITY_HISTORY_MAX),
});
export type AgentQuality = z.infer<typeof agentQualitySchema>;

/** The newest report of an agent without its A/B and history: what the owner's agent list carries per agent. */
export const agentQualitySummarySchema = agentQualitySchema.omit({ ab: true, history: true });
export type AgentQualitySummary = z.infer<typeof agentQualitySummarySchema>;

/** Limits of an explanation: examples, lexicon and glossary entries listed, and each text's length. */
export const EXPLANATION_MAX_EXAMPLES = 10;
export const EXPLANATION_MAX_LEXICON = 30;
export const EXPLANATION_MAX_GLOSSARY = 30;
/** As TRANSLATION_MAX_CHARS (an example is at most as long as a translatable text in practice; longer ones are cut). */
export const EXPLANATION_TEXT_MAX = 2000;
export const EXPLANATION_TERM_MAX = 200;

/** Why an answer came out as it did (`explain: true`): the agent's examples, lexicon and glossary entries that shaped it. */
export const translationExplanationSchema = z.object({
  examples: z
    .array(z.object({ source: z.string().max(EXPLANATION_TEXT_MAX), target: z.string().max(EXPLANATION_TEXT_MAX), score: z.number() }))
    .max(EXPLANATION_MAX_EXAMPLES),
  lexicon: z
    .array(z.object({ source: z.string().max(EXPLANATION_TERM_MAX), target: z.string().max(EXPLANATION_TERM_MAX), prob: z.number() }))
    .max(EXPLANATION_MAX_LEXICON),
  glossary: z.array(z.object({ term: z.string().max(EXPLANATION_TERM_MAX), translation: z.string().max(EXPLANATION_TERM_MAX) })).max(EXPLANATION_MAX_GLOSSARY),
});
export type TranslationExplanation = z.infer<typeof translationExplanationSchema>;

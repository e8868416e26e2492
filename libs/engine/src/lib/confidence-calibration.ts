/**
 * Confidence calibration: a monotone map from the engine's raw confidence to the expected chrF of the answer, fitted
 * by isotonic regression (pool adjacent violators) on held-out pairs, so that a higher confidence means a better
 * expected answer and the number reads as a quality estimate for the agent.
 */
import type { CalibrationPoint, ConfidenceCalibration } from './types';

/** Knots kept in a stored calibration (adjacent isotonic blocks are pooled down to this many). */
const DEFAULT_MAX_KNOTS = 24;

interface Block {
  raw: number;
  chrf: number;
  weight: number;
}

const pool = (a: Block, b: Block): Block => {
  const weight = a.weight + b.weight;
  return { raw: (a.raw * a.weight + b.raw * b.weight) / weight, chrf: (a.chrf * a.weight + b.chrf * b.weight) / weight, weight };
};

const clamp01 = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);

/**
 * Fits the calibration on held-out (raw confidence, chrF) points: isotonic regression of chrF on raw confidence, its
 * blocks (strictly increasing means) pooled down to `maxKnots` by weight. Non-finite points are ignored.
 */
export function fitConfidenceCalibration(points: readonly CalibrationPoint[], opts?: { maxKnots?: number }): ConfidenceCalibration {
  const maxKnots = Math.max(2, opts?.maxKnots ?? DEFAULT_MAX_KNOTS);
  const sorted = points
    .filter((p) => Number.isFinite(p.raw) && Number.isFinite(p.chrf))
    .map((p) => ({ raw: clamp01(p.raw), chrf: clamp01(p.chrf), weight: 1 }))
    .sort((a, b) => a.raw - b.raw);
  // equal raw values form one block (one knot per abscissa)
  const blocks: Block[] = [];
  for (const p of sorted) {
    const last = blocks[blocks.length - 1];
    if (last && last.raw === p.raw) blocks[blocks.length - 1] = pool(last, p);
    else blocks.push(p);
    // pool adjacent violators: block means strictly increase
    while (blocks.length > 1 && blocks[blocks.length - 2].chrf >= blocks[blocks.length - 1].chrf) {
      const b = blocks.pop()!;
      blocks[blocks.length - 1] = pool(blocks[blocks.length - 1], b);
    }
  }
  // pooling consecutive blocks of increasing means keeps them increasing
  let knots = blocks;
  if (knots.length > maxKnots) {
    const total = knots.reduce((s, b) => s + b.weight, 0);
    const grouped: Block[] = [];
    let seen = 0;
    for (const b of knots) {
      const group = Math.min(maxKnots - 1, Math.floor((seen / total) * maxKnots));
      seen += b.weight;
      if (grouped.length > group) grouped[group] = pool(grouped[group], b);
      else grouped.push(b);
    }
    knots = grouped;
  }
  return { knots: knots.map((b) => [b.raw, b.chrf]), points: sorted.length };
}

/**
 * The calibrated confidence: linear between knots, towards (0, 0) below the first knot and, above the last, on with
 * the mean slope of the knots (at most 1). Without a calibration (or knots) the raw confidence.
 */
export function calibrateConfidence(raw: number, calibration: ConfidenceCalibration | null | undefined): number {
  const x = clamp01(raw);
  const k = calibration?.knots;
  if (!k?.length) return x;
  const [x0, y0] = k[0];
  const [xn, yn] = k[k.length - 1];
  if (x <= x0) return x0 > 0 ? clamp01((y0 * x) / x0) : y0;
  if (x >= xn) {
    const slope = k.length > 1 && xn > x0 ? Math.max(0, (yn - y0) / (xn - x0)) : 0;
    return clamp01(yn + (x - xn) * slope);
  }
  let lo = 0;
  let hi = k.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (k[mid][0] <= x) lo = mid;
    else hi = mid;
  }
  const [xa, ya] = k[lo];
  const [xb, yb] = k[hi];
  return clamp01(ya + ((x - xa) / (xb - xa)) * (yb - ya));
}

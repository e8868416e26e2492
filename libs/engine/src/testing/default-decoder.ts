import { PhraseDecoder } from '../lib/decoder';
import type { AgentModel } from '../lib/model';
import { DEFAULT_DECODER_WEIGHTS, TRANSLATOR_DEFAULTS } from '../lib/tuning';
import { UnknownWords } from '../lib/unknown-words';

/** The decoder a Translator with default options builds for `model` (specs that drive phase 1 directly). */
export function defaultDecoder(model: AgentModel): PhraseDecoder {
  const d = TRANSLATOR_DEFAULTS;
  return new PhraseDecoder(model, new UnknownWords(model, [...d.stemMinRatio]), {
    weights: DEFAULT_DECODER_WEIGHTS,
    beam: d.beam,
    lengthTargets: [d.lengthTarget, d.lengthTargetReverse],
    reverseCopy: d.reverseCopy,
  });
}

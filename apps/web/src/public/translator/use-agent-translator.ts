import { useState } from 'react';
import { useTranslator, type TranslatorCredentials } from './use-translator';

/**
 * The translator of one agent: its direction (either way, `swap`), the source text and the translation. Swapping or
 * clearing empties the text and drops the translation.
 */
export function useAgentTranslator(credentials?: TranslatorCredentials) {
  const [reversed, setReversed] = useState(false);
  const [text, setText] = useState('');
  const translator = useTranslator(credentials);
  const clear = () => {
    setText('');
    translator.reset();
  };
  const swap = () => {
    setReversed((r) => !r);
    clear();
  };
  /** The source and target language of `agent` in the chosen direction. */
  const direction = <L>(agent: { src_lang: L; tgt_lang: L }) =>
    reversed ? { src: agent.tgt_lang, tgt: agent.src_lang } : { src: agent.src_lang, tgt: agent.tgt_lang };
  return { ...translator, reversed, text, setText, swap, clear, direction, canTranslate: text.trim().length > 0 && !translator.busy };
}

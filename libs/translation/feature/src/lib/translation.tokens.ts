/** Injection tokens of the translation feature (ports live in the data-access and llm libs). */
export const TRANSLATION_MODULE_OPTIONS = Symbol('TRANSLATION_MODULE_OPTIONS');

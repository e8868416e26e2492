/**
 * Made-up corpora's Spanish nouns that the invented language keeps as they are (as many indigenous-language corpora
 * keep rare Spanish nouns): enough of them make the agent learn that the language borrows Spanish words.
 */
export const BORROWED_NOUNS = ['chocolate', 'guitarra', 'bicicleta', 'televisor', 'computadora', 'teléfono', 'camión', 'plátano', 'zapato', 'ventana'];

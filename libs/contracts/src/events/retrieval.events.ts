import { defineEvent, type EventRegistry } from './define';

/** Events published by the retrieval domain. Add entries; never rename or remove one (add a v2 instead). */
export const retrievalEvents = {} satisfies EventRegistry;

// Keep the import used even while the registry is empty.
void defineEvent;

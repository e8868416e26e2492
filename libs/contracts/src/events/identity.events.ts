import { defineEvent, type EventRegistry } from './define';

/** Events published by the identity domain. Add entries; never rename or remove one (add a v2 instead). */
export const identityEvents = {} satisfies EventRegistry;

// Keep the import used even while the registry is empty.
void defineEvent;

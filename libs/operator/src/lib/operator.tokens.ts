/** Where `gaia seed` reads parallel files from (the operator's local folder). */
export const SEED_SOURCE = Symbol('SEED_SOURCE');

/** The account that owns seeded public agents (no password: nobody signs in as it). */
export const SYSTEM_ACCOUNT_EMAIL = 'system@gaia.invalid';
export const SYSTEM_ACCOUNT_NAME = 'Gaia';

/** How often the command line re-reads a state it waits for (a task, an artifact version). */
export const OPERATOR_POLL_MS = 250;
/** Longest wait for one seeded agent or rebuild to be learned. */
export const OPERATOR_WAIT_MS = 30 * 60_000;
/** Rows of a listing (users, dead letters, plan requests). */
export const OPERATOR_LIST_LIMIT = 500;

import { defineRpc, type RpcRegistry } from './define';

/** Calls served by the identity service. Add entries; never rename or remove one (add a v2 instead). */
export const identityRpc = {} satisfies RpcRegistry;

void defineRpc;

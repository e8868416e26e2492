import { defineRpc, type RpcRegistry } from './define';

/** Calls served by the retrieval service. Add entries; never rename or remove one (add a v2 instead). */
export const retrievalRpc = {} satisfies RpcRegistry;

void defineRpc;

import type { z } from 'zod';
import { agentsRpc } from './agents.rpc';
import { agentsFeedbackRpc } from './agents-feedback.rpc';
import { billingRpc } from './billing.rpc';
import { diagnosticsRpc } from './diagnostics.rpc';
import { identityRpc } from './identity.rpc';
import { ingestionRpc } from './ingestion.rpc';
import { retrievalRpc } from './retrieval.rpc';
import { translationRpc } from './translation.rpc';
import type { RpcDefinition } from './define';

export * from './define';
export * from './translation.rpc';
export * from './ingestion.rpc';
export * from './agents.rpc';
export * from './agents-feedback.rpc';
export * from './billing.rpc';
export { agentsRpc, agentsFeedbackRpc, billingRpc, diagnosticsRpc, identityRpc, ingestionRpc, retrievalRpc, translationRpc };

export const RPCS = {
  ...diagnosticsRpc,
  ...agentsRpc,
  ...agentsFeedbackRpc,
  ...identityRpc,
  ...ingestionRpc,
  ...retrievalRpc,
  ...translationRpc,
  ...billingRpc,
} as const;

export type RpcName = keyof typeof RPCS;
export type RpcRequest<K extends RpcName> = (typeof RPCS)[K] extends RpcDefinition<infer Q, z.ZodType> ? z.input<Q> : never;
export type RpcResponse<K extends RpcName> = (typeof RPCS)[K] extends RpcDefinition<z.ZodType, infer R> ? z.infer<R> : never;
export type StreamRpcName = { [K in RpcName]: (typeof RPCS)[K] extends { stream: true } ? K : never }[RpcName];
export type UnaryRpcName = Exclude<RpcName, StreamRpcName>;

export function rpcDefinition(name: RpcName): RpcDefinition {
  return RPCS[name] as RpcDefinition;
}

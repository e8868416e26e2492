import { z } from 'zod';
import { defineRpc, type RpcRegistry } from './define';

/** Diagnostics calls served by every service (messaging self-tests and readiness). */
export const diagnosticsRpc = {
  'diagnostics.echo.v1': defineRpc({
    service: 'probe',
    description: 'Echoes the message; used by transport tests.',
    request: z.object({ message: z.string() }),
    response: z.object({ message: z.string(), servedBy: z.string() }),
  }),
  'diagnostics.count.v1': defineRpc({
    service: 'probe',
    stream: true,
    description: 'Streams 1..n; used by streaming transport tests.',
    request: z.object({ n: z.number().int().min(0).max(1000) }),
    response: z.object({ i: z.number().int() }),
  }),
} satisfies RpcRegistry;

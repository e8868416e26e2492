import type { z } from 'zod';
import { DomainError } from '@gaia/shared/kernel';

/** Parses a body with a contract schema; 400 with a readable message otherwise. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, message?: string): z.infer<S> {
  const r = schema.safeParse(body ?? {});
  if (r.success) return r.data;
  throw DomainError.invalid(message ?? r.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '), 'invalid_request');
}

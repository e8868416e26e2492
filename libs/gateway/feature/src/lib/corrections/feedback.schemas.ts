import type { SchemaObject } from '@nestjs/swagger';
import { z } from 'zod';
import { agentsFeedbackRpc, correctionBodySchema, glossaryImportBodySchema, glossaryTermBodySchema } from '@gaia/contracts';

/** OpenAPI 3.0 schemas of corrections and the glossary, generated from the contract zod schemas. */
function json(schema: z.ZodType, io: 'input' | 'output' = 'output'): SchemaObject {
  const out = z.toJSONSchema(schema, { target: 'openapi-3.0', unrepresentable: 'any', io }) as Record<string, unknown>;
  delete out['$schema'];
  return out as SchemaObject;
}
const nextCursor: SchemaObject = { type: 'string', nullable: true, description: 'Pass as `cursor` for the next page; null on the last page' };
const correction = json(agentsFeedbackRpc['agents.corrections-add.v1'].response);
const term = json(agentsFeedbackRpc['agents.glossary-add.v1'].response);

export const FS = {
  correctionBody: json(correctionBodySchema, 'input'),
  correction,
  correctionList: { type: 'object', properties: { corrections: { type: 'array', items: correction }, next_cursor: nextCursor }, required: ['corrections', 'next_cursor'] } as SchemaObject,
  termBody: json(glossaryTermBodySchema, 'input'),
  term,
  termList: { type: 'object', properties: { terms: { type: 'array', items: term }, next_cursor: nextCursor }, required: ['terms', 'next_cursor'] } as SchemaObject,
  importBody: json(glossaryImportBodySchema, 'input'),
  importResult: json(agentsFeedbackRpc['agents.glossary-import.v1'].response),
};

import type { SchemaObject } from '@nestjs/swagger';
import { agentsFeedbackRpc, correctionBodySchema, glossaryImportBodySchema, glossaryTermBodySchema } from '@gaia/contracts';
import { fromZod } from '../openapi/schemas';

/** OpenAPI 3.0 schemas of corrections and the glossary, generated from the contract zod schemas. */
const nextCursor: SchemaObject = { type: 'string', nullable: true, description: 'Pass as `cursor` for the next page; null on the last page' };
const correction = fromZod(agentsFeedbackRpc['agents.corrections-add.v1'].response);
const term = fromZod(agentsFeedbackRpc['agents.glossary-add.v1'].response);

export const FS = {
  correctionBody: fromZod(correctionBodySchema, 'input'),
  correction,
  correctionList: {
    type: 'object',
    properties: { corrections: { type: 'array', items: correction }, next_cursor: nextCursor },
    required: ['corrections', 'next_cursor'],
  } as SchemaObject,
  termBody: fromZod(glossaryTermBodySchema, 'input'),
  term,
  termList: {
    type: 'object',
    properties: { terms: { type: 'array', items: term }, next_cursor: nextCursor },
    required: ['terms', 'next_cursor'],
  } as SchemaObject,
  importBody: fromZod(glossaryImportBodySchema, 'input'),
  importResult: fromZod(agentsFeedbackRpc['agents.glossary-import.v1'].response),
};

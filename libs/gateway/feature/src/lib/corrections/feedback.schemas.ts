import type { SchemaObject } from '@nestjs/swagger';
import { agentsFeedbackRpc, correctionBodySchema, glossaryImportBodySchema, glossaryTermBodySchema } from '@gaia/contracts';
import { fromZod } from '../openapi/schemas';

/** OpenAPI 3.0 schemas of corrections and the glossary, generated from the contract zod schemas. */
const nextCursor: SchemaObject = { type: 'string', nullable: true, description: 'Pass as `cursor` for the next page; null on the last page' };
const correction = fromZod(agentsFeedbackRpc['agents.corrections-add.v1'].response);
const term = fromZod(agentsFeedbackRpc['agents.glossary-add.v1'].response);

/** A cursor page: the `items` under `key`, and `next_cursor`. */
const cursorPage = (key: string, items: SchemaObject): SchemaObject => ({
  type: 'object',
  properties: { [key]: { type: 'array', items }, next_cursor: nextCursor },
  required: [key, 'next_cursor'],
});

export const FS = {
  correctionBody: fromZod(correctionBodySchema, 'input'),
  correction,
  correctionList: cursorPage('corrections', correction),
  termBody: fromZod(glossaryTermBodySchema, 'input'),
  term,
  termList: cursorPage('terms', term),
  importBody: fromZod(glossaryImportBodySchema, 'input'),
  importResult: fromZod(agentsFeedbackRpc['agents.glossary-import.v1'].response),
};

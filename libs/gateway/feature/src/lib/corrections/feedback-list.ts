import { applyDecorators, Get } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, type SchemaObject } from '@nestjs/swagger';
import { PAGE_SIZE_MAX } from '@gaia/contracts';
import { Auth } from '../auth/auth.guard';
import { S } from '../openapi/schemas';

/** GET of an agent's feedback list (corrections, glossary terms) by its owner or an editor: cursor-paginated `schema`. */
export const FeedbackList = (summary: string, schema: SchemaObject) =>
  applyDecorators(
    Get(),
    Auth('key'),
    ApiOperation({ summary }),
    // applied in this order (stacked decorators apply bottom-up): the document lists cursor, then limit
    ApiQuery({ name: 'cursor', required: false, description: '`next_cursor` of the previous page' }),
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_MAX } }),
    ApiResponse({ status: 200, schema }),
    ApiResponse({ status: 403, schema: S.error }),
    ApiResponse({ status: 404, schema: S.error }),
  );

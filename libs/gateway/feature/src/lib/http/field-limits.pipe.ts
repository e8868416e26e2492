import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { fieldMaxLength, fieldTooLongMessage } from '@gaia/contracts';
import { DomainError } from '@gaia/shared/kernel';

/** How deep a body is inspected (the API's bodies are flat or one level deep). */
const MAX_DEPTH = 4;

function check(field: string, value: unknown, depth: number): void {
  if (typeof value === 'string') {
    const max = fieldMaxLength(field);
    if (value.length > max) throw DomainError.invalid(fieldTooLongMessage(field, value.length, max), 'field_too_long');
    return;
  }
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return;
  // Array items carry their field's limit; object members their own name.
  if (Array.isArray(value)) for (const item of value) check(field, item, depth + 1);
  else for (const [k, v] of Object.entries(value)) check(k, v, depth + 1);
}

/** Checks every string field of an input object (e.g. a Socket.IO message) against its limit. */
export function assertFieldLimits(input: unknown): void {
  if (input && typeof input === 'object') for (const [k, v] of Object.entries(input)) check(k, v, 1);
}

/**
 * The length limits of every input field (`FIELD_MAX_LENGTH` of the contracts), applied to every body,
 * multipart field, query and path parameter a handler receives (a pipe runs after the upload interceptor,
 * so multipart fields are included): 400 `<field> is too long: N characters (maximum M).`
 */
@Injectable()
export class FieldLimitsPipe implements PipeTransform {
  transform(value: unknown, meta: ArgumentMetadata): unknown {
    if (meta.type === 'custom') return value;
    if (meta.data) check(meta.data, value, 0);
    else assertFieldLimits(value);
    return value;
  }
}

import { FIELD_MAX_LENGTH, FIELD_MAX_LENGTH_DEFAULT } from '@gaia/contracts';
import { assertFieldLimits, FieldLimitsPipe } from './field-limits.pipe';

describe('field limits (one table for every input field)', () => {
  const pipe = new FieldLimitsPipe();
  const x = (n: number) => 'x'.repeat(n);

  it('passes values at the limit and refuses one character more, naming the field', () => {
    expect(pipe.transform({ src_lang: x(FIELD_MAX_LENGTH.src_lang) }, { type: 'body' })).toEqual({ src_lang: x(FIELD_MAX_LENGTH.src_lang) });
    expect(() => pipe.transform({ src_lang: x(FIELD_MAX_LENGTH.src_lang + 1) }, { type: 'body' })).toThrow('src_lang is too long: 65 characters (maximum 64).');
  });

  it('checks named query and path parameters, array items and nested members; unknown fields get the default', () => {
    expect(() => pipe.transform(x(201), { type: 'query', data: 'task_id' })).toThrow(/^task_id is too long/);
    expect(() => pipe.transform(x(201), { type: 'param', data: 'id' })).toThrow(/^id is too long/);
    expect(() => assertFieldLimits({ texts: ['ok', x(FIELD_MAX_LENGTH_DEFAULT + 1)] })).toThrow(/^texts is too long/);
    expect(() => assertFieldLimits({ member: { email: x(255) } })).toThrow(/^email is too long/);
    expect(() => assertFieldLimits({ anything: x(FIELD_MAX_LENGTH_DEFAULT + 1) })).toThrow(/^anything is too long/);
    expect(() => assertFieldLimits({ stream: true, n: 5, files: [Buffer.alloc(100_000)] })).not.toThrow();
  });

  it('is a 400 with code field_too_long', () => {
    try {
      assertFieldLimits({ name: x(300) });
      throw new Error('not refused');
    } catch (e) {
      expect(e).toMatchObject({ status: 400, code: 'field_too_long' });
    }
  });
});

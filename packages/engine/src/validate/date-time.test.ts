// JSON Schema's date-time is RFC 3339's date-time: lowercase t and z, leap seconds at 23:59 UTC,
// fractions of any length.
import { describe, expect, it } from 'vitest';
import { parseSchema } from '../schema/parse.ts';
import { validateBytes } from './validator.ts';

const checked = parseSchema({
  type: 'object',
  properties: { at: { type: 'string', format: 'date-time' } },
});
if (!checked.ok) throw new Error('refused');
const schema = checked.value;

const valid = (value: string) =>
  validateBytes(schema, new TextEncoder().encode(JSON.stringify([{ at: value }])), {
    fileType: 'json',
  }).valid;

describe('date-time (RFC 3339)', () => {
  it.each([
    '1963-06-19T08:30:06.283185Z',
    '1963-06-19t08:30:06z',
    '1998-12-31T23:59:60Z',
    '1998-12-31T15:59:60.123-08:00',
    '1999-01-01T00:59:60+01:00',
    '2024-02-29T12:00:00.1234567890123Z',
  ])('accepts %s', (value) => {
    expect(valid(value)).toBe(true);
  });

  it.each([
    '1998-12-31T23:59:61Z',
    '1998-12-31T23:58:60Z',
    '1998-12-31T22:59:60Z',
    '1998-12-31T23:59:60',
    '2023-02-29T12:00:00Z',
    '1963-06-19T08:30:06.Z',
    '1963-06-19 08:30:06Z',
  ])('rejects %s', (value) => {
    expect(valid(value)).toBe(false);
  });
});

// Positions after records the byte core took (decision 252): an error right after them names the
// same line, column and byte offset as when every record is read as text.
import { describe, expect, it, vi } from 'vitest';
import { parseSchema } from '../schema/parse.ts';
import { createValidator } from './validator.ts';
import { taken } from '../../test/counting-core.ts';

vi.mock('../bytecore/load.ts', async (importOriginal) =>
  (await import('../../test/counting-core.ts')).countingLoad(importOriginal),
);

const parsed = parseSchema(
  { name: 'x', fields: [{ name: 'f0', type: 'integer', required: true, validation: {} }] },
  'web',
);
if (!parsed.ok) throw new Error('schema');
const schema = parsed.value;

function errors(bytes: Uint8Array, byteCore: boolean, chunk = bytes.length) {
  const v = createValidator(schema, { fileType: 'json', byteCore });
  for (let at = 0; at < bytes.length; at += chunk) v.push(bytes.subarray(at, at + chunk));
  return v.end().errors.map((e) => e.message);
}

describe('JSON records taken on their bytes', () => {
  it('keeps the column of a one-line array whose second piece starts at a record', () => {
    // '[' and 4,369 records of 15 bytes fill the first 64 KiB piece exactly, so the core reads
    // the second from its first byte, on the same line, up to the broken record.
    const records = Array.from({ length: 9000 }, (_, k) =>
      k === 6000 ? '{"f0" 1234567}' : '{"f0":1234567}',
    );
    const bytes = new TextEncoder().encode(`[${records.join(',')}]`);
    const expected = `Invalid JSON at line 1, column ${1 + 1 + 6000 * 15 + 6}: expected ':' after a property name, found '1'`;
    expect(errors(bytes, false)).toEqual([expected]);
    expect(errors(bytes, true)).toEqual([expected]);
  });

  it('reads a one-line array from the end of each record begun in the previous piece', () => {
    // Records of varied length, so pieces start inside records, some inside strings.
    const records = Array.from({ length: 20000 }, (_, k) =>
      k === 19000 ? '{"f0":"x"}' : `{"f0":${k + 1},"note":"a,\\"}${'b'.repeat(k % 13)}"}`,
    );
    const bytes = new TextEncoder().encode(`[${records.join(',')}]`);
    const before = taken.jsonRecords;
    const found = errors(bytes, true, 100_000);
    expect(found).toEqual(errors(bytes, false));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/whole number/);
    // All but the first piece's records and the one with an error, less a few per piece.
    expect(taken.jsonRecords - before).toBeGreaterThan(17_000);
  });

  it('keeps the line and byte offset of a bad byte in NDJSON', () => {
    const text = Array.from({ length: 30000 }, (_, k) => `{"f0":${k}}`).join('\n');
    const bytes = new TextEncoder().encode(`${text}\n`);
    const at = bytes.indexOf(0x0a, 200_000) + 4;
    bytes[at] = 0xff;
    const found = errors(bytes, true);
    expect(found).toEqual(errors(bytes, false));
    expect(found[0]).toMatch(new RegExp(`column 4 \\(byte offset ${at}\\)$`));
  });
});

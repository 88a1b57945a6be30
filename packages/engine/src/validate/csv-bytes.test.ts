import { describe, expect, it } from 'vitest';
import type { SchemaModel } from '../model.ts';
import { fieldSpec } from '../../test/fast-path-fields.ts';
import { ENCODING_SAMPLE_BYTES } from '../text/detect-encoding.ts';
import { validateBytes, type ValidateOptions } from './validator.ts';

const SCHEMA: SchemaModel = {
  name: 'bytes',
  fields: [fieldSpec({ name: 'a', type: 'integer' }), fieldSpec({ name: 'b' })],
  orderMatters: false,
  additionalColumns: true,
  additionalProperties: true,
};

function both(text: string, options: Partial<ValidateOptions> = {}) {
  const bytes = new TextEncoder().encode(text);
  const on = validateBytes(SCHEMA, bytes, { fileType: 'csv', ...options });
  const off = validateBytes(SCHEMA, bytes, { fileType: 'csv', ...options, byteCore: false });
  return { on, off };
}

describe('the byte core on files its header leaves odd', () => {
  it('a header read as no cells (over the field limit) takes no record and ends', () => {
    // maxFieldBytes 3: the header's first cell is too long, so the header has no cells; every
    // record then has more cells than it. The core once counted records forever without moving.
    // The core reads only past the first 64 KiB, which decide the encoding: blank lines fill them.
    const text = `abcdef,b\n${'\n'.repeat(ENCODING_SAMPLE_BYTES)}"","0"\n1,x\n`;
    const { on, off } = both(text, { maxFieldBytes: 3 });
    expect(on).toEqual(off);
    expect(on.totalRows).toBe(off.totalRows);
  });

  it('a header of empty names still reads its rows as the JavaScript path does', () => {
    const { on, off } = both(`,\n${'1,x\n,\n'.repeat(ENCODING_SAMPLE_BYTES / 4)}`);
    expect(on).toEqual(off);
  });

  it('a record that starts with U+FEFF keeps it (the decoder would drop it as a BOM)', () => {
    const schema: SchemaModel = {
      ...SCHEMA,
      fields: [fieldSpec({ name: 'a', rules: { unique: true } }), fieldSpec({ name: 'b' })],
    };
    const rows = Array.from({ length: ENCODING_SAMPLE_BYTES / 4 }, (_, i) => `r${i},1\n`);
    const text = `a,b\n${rows.join('')}\uFEFFx,1\n\uFEFFx,2\nx,3\n`;
    const bytes = new TextEncoder().encode(text);
    const on = validateBytes(schema, bytes, { fileType: 'csv' });
    const off = validateBytes(schema, bytes, { fileType: 'csv', byteCore: false });
    expect(on).toEqual(off);
    expect(on.errors.map((e) => e.value)).toEqual(['\uFEFFx']);
  });

  it('an encoding error after records the core took names its byte of the file', () => {
    const head = new TextEncoder().encode(`a,b\n${'1,x\n'.repeat(ENCODING_SAMPLE_BYTES / 4)}`);
    const bytes = new Uint8Array([...head, ...new TextEncoder().encode('5,y\n'), 0x7a, 0xc3, 0x0a]);
    const on = validateBytes(SCHEMA, bytes, { fileType: 'csv' });
    const off = validateBytes(SCHEMA, bytes, { fileType: 'csv', byteCore: false });
    expect(on).toEqual(off);
    expect(on.errors[0]?.message).toContain(`at byte ${head.length + 5} of the file`);
  });
});

describe('cross-field rules the byte core proves from what its checks read', () => {
  const schemaWith = (values: string[]): SchemaModel => ({
    ...SCHEMA,
    fields: [
      fieldSpec({ name: 'n', type: 'number', rules: { precision: 2 } }),
      fieldSpec({ name: 'd', type: 'date' }),
      fieldSpec({ name: 'c', type: 'enum', rules: { values: ['A', 'B'] } }),
    ],
    rules: [
      { kind: 'compare', left: 'n', op: '>', value: '1.5' },
      { kind: 'compare', left: 'd', op: '<=', value: '2024-02-29' },
      { kind: 'allowedValuesWhen', field: 'c', when: { field: 'n', op: '>', value: '2' }, values },
    ],
  });
  // Past the 64 KiB the reader decodes itself: the core reads these rows.
  const rows = Array.from(
    { length: 4 * Math.ceil(ENCODING_SAMPLE_BYTES / 40) },
    (_, i) =>
      ['2.5,2024-02-28,A', '1.51,2024-02-29,B', '1.5,2024-03-01,B', '3,2024-01-01,B'][i % 4],
  );
  const text = `n,d,c\n${rows.join('\n')}\n`;

  it('bounds on a value the column already read, and an enum whose values are all allowed', () => {
    const bytes = new TextEncoder().encode(text);
    for (const values of [['A', 'B', 'Z'], ['A']]) {
      const schema = schemaWith(values);
      const on = validateBytes(schema, bytes, { fileType: 'csv', maxErrors: 100_000 });
      const off = validateBytes(schema, bytes, {
        fileType: 'csv',
        maxErrors: 100_000,
        byteCore: false,
      });
      expect(on).toEqual(off);
      const third = rows.length / 4;
      // Row 3 of each four breaks both compares; row 4 has c = B with n > 2 where only A is allowed.
      expect(on.errorCount).toBe(third * 2 + (values.includes('B') ? 0 : third));
    }
  });
});

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

import { describe, expect, it } from 'vitest';
import { inferFromBytes } from './from-bytes.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('inferFromBytes', () => {
  it('reads a CSV with the engine reader: BOM, detected delimiter, quoted cells', () => {
    const csv = '\uFEFFid;email;note\r\n1;a@example.com;"x; y"\r\n2;b@example.com;\r\n';
    expect(inferFromBytes(bytes(csv), 'csv').fields).toEqual([
      { name: 'id', type: 'integer', required: true, validation: { minValue: 0, unique: true } },
      { name: 'email', type: 'email', required: true, validation: {} },
      { name: 'note', type: 'string', required: false, validation: {} },
    ]);
  });

  it('looks at the first rows only', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => (i < 100 ? `${i}` : 'text'));
    const schema = inferFromBytes(bytes(`n\n${rows.join('\n')}\n`), 'csv', 100);
    expect(schema.fields[0]?.type).toBe('integer');
    expect(inferFromBytes(bytes(`n\n${rows.join('\n')}\n`), 'csv', 101).fields[0]?.type).toBe(
      'string',
    );
  });

  it('reads a JSON array with big numbers intact', () => {
    const json = '[{"id": 9007199254740993, "ok": true}, {"id": 9007199254740995, "ok": false}]';
    const schema = inferFromBytes(bytes(json), 'json');
    expect(schema.fileType).toBe('json');
    expect(schema.fields.map((f) => [f.name, f.type])).toEqual([
      ['id', 'integer'],
      ['ok', 'boolean'],
    ]);
  });

  it('reads NDJSON', () => {
    const schema = inferFromBytes(bytes('{"a":"x@example.com"}\n{"a":"y@example.com"}\n'), 'json');
    expect(schema.fields).toEqual([{ name: 'a', type: 'email', required: true, validation: {} }]);
  });
});

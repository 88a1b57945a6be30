import { describe, expect, it } from 'vitest';
import { inferFromBytes, inferProposalFromBytes } from './from-bytes.ts';

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
    expect(inferFromBytes(bytes(`n\n${rows.join('\n')}\n`), 'csv', 200).fields[0]?.type).toBe(
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

  it('names the values that do not fit by the rows validation reports', () => {
    // A record over two lines keeps one row; a blank line is still a row.
    const csv = 'id,qty\n1,"7"\n2,8\n\n3,x4\n4,"1\n0"\n5,9\n';
    const proposal = inferProposalFromBytes(bytes(csv), 'csv');
    expect(proposal.schema.fields[1]).toMatchObject({ name: 'qty', type: 'integer' });
    expect(proposal.misfits).toEqual([
      {
        field: 'qty',
        type: 'integer',
        count: 2,
        misfits: [
          { row: 5, value: 'x4' },
          { row: 6, value: '1\n0' },
        ],
      },
    ]);
    const json = '[{"n": 1}, {"n": 2}, {"n": "three"}, {"n": 4}]';
    expect(inferProposalFromBytes(bytes(json), 'json').misfits).toEqual([
      { field: 'n', type: 'integer', count: 1, misfits: [{ row: 3, value: 'three' }] },
    ]);
  });
});

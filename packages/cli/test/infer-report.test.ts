import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/run-cli.ts';

// `infer` then `validate` on the same file fails by design when a column has stray values
// (inference by majority, docs/decisions/111): infer says so on stderr, field by field, and the
// schema alone goes to stdout (issue 27).

const cli = (args: string[]) => runCli(args);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'schemacheck-infer-'));
  await writeFile(
    join(dir, 'stock.csv'),
    'sku,qty,price\nA1,5,1.50\nA2,x4,2.50\nA3,7,3.00\nA4,8,4.25\nA5,n/a,5.00\n',
  );
  await writeFile(join(dir, 'clean.csv'), 'sku,qty\nA1,5\nA2,6\n');
  // Twelve rows: no column is unique, sku and warehouse together are.
  const stock = Array.from({ length: 12 }, (_, i) => `S${i % 4},W${Math.floor(i / 4)},5`);
  await writeFile(join(dir, 'keyed.csv'), ['sku,warehouse,qty', ...stock, ''].join('\n'));
});

describe('schemacheck infer on stderr', () => {
  it('names each field, its type, the share that fits and the misfits; validate then finds them', async () => {
    const infer = await cli(['infer', join(dir, 'stock.csv')]);
    expect(infer.code).toBe(0);
    const schema = JSON.parse(infer.stdout);
    await writeFile(join(dir, 'stock.schema.json'), infer.stdout);
    expect(schema.fields.map((f: { type: string }) => f.type)).toEqual([
      'string',
      'integer',
      'number',
    ]);
    expect(infer.stderr).toBe(
      [
        `schemacheck: inferred from 5 rows of ${join(dir, 'stock.csv')}:`,
        '  sku: string, 5 of 5 values fit (100%)',
        '  qty: integer, 3 of 5 values fit (60%)',
        '    do not fit:',
        '      row 3: "x4"',
        '      row 6: "n/a"',
        '  price: number, 5 of 5 values fit (100%)',
        'schemacheck: 2 values in column qty do not fit; see the misfits above.',
        '  Each field takes the type most of its values have, so validating this file against the',
        "  schema reports them as errors: fix the data, or change the field's type.",
        '',
      ].join('\n'),
    );

    const validate = await cli([
      'validate',
      join(dir, 'stock.csv'),
      '--schema',
      join(dir, 'stock.schema.json'),
      '--format',
      'json',
    ]);
    expect(validate.code).toBe(1);
    const rows = JSON.parse(validate.stdout).errors.map((e: { row: number; field: string }) => [
      e.row,
      e.field,
    ]);
    expect(rows).toEqual([
      [3, 'qty'],
      [6, 'qty'],
    ]);
  });

  it('names the columns it leaves out, and says when the file has none', async () => {
    await writeFile(join(dir, 'headers.csv'), 'a,a,,b\n1,2,3,x\n');
    const infer = await cli(['infer', join(dir, 'headers.csv')]);
    expect(infer.code).toBe(0);
    expect(JSON.parse(infer.stdout).fields).toHaveLength(2);
    expect(infer.stderr.split('\n').slice(3)).toEqual([
      'schemacheck: left out of the schema:',
      '  Column 2 repeats the name "a"',
      '  Column 3 has no name in the header',
      '  validating this file reports its header: give each column a name of its own',
      '',
    ]);
    await writeFile(join(dir, 'tags.json'), '[{"id":1,"tags":["x"]},{"id":2,"tags":[]}]');
    const json = await cli(['infer', join(dir, 'tags.json')]);
    expect(json.stderr).toContain(
      '\n  tags holds lists or objects, which cannot be typed (any value is accepted)\n',
    );
    await writeFile(join(dir, 'empty.csv'), '');
    const empty = await cli(['infer', join(dir, 'empty.csv')]);
    expect(empty.code).toBe(0);
    expect(empty.stderr).toBe(
      `schemacheck: inferred from 0 rows of ${join(dir, 'empty.csv')}:\n  no columns: the file is empty or has no header\n`,
    );
  });

  it('a file whose values all fit gets the per-field lines and no warning', async () => {
    const infer = await cli(['infer', join(dir, 'clean.csv')]);
    expect(infer.code).toBe(0);
    expect(infer.stderr).toBe(
      `schemacheck: inferred from 2 rows of ${join(dir, 'clean.csv')}:\n  sku: string, 2 of 2 values fit (100%)\n  qty: integer, 2 of 2 values fit (100%)\n`,
    );
  });

  it('lists a composite key as a suggested rule, leaves it out of the schema, and it works once pasted in', async () => {
    const infer = await cli(['infer', join(dir, 'keyed.csv')]);
    expect(infer.code).toBe(0);
    const schema = JSON.parse(infer.stdout);
    expect(schema.rules).toBeUndefined();
    const suggested = '{"kind":"uniqueTogether","fields":["sku","warehouse"]}';
    expect(infer.stderr.split('\n').slice(-4)).toEqual([
      'schemacheck: suggested rules, not in the schema above (add them to "rules" if they hold):',
      `  ${suggested}`,
      '    No column alone is unique in the 12 sample rows, but sku and warehouse together are: a composite key?',
      '',
    ]);

    await writeFile(
      join(dir, 'keyed.schema.json'),
      JSON.stringify({ ...schema, rules: [JSON.parse(suggested)] }),
    );
    await writeFile(join(dir, 'dup.csv'), 'sku,warehouse,qty\nS1,W0,5\nS2,W0,5\nS1,W0,6\n');
    const validate = await cli([
      'validate',
      join(dir, 'dup.csv'),
      '--schema',
      join(dir, 'keyed.schema.json'),
      '--format',
      'json',
    ]);
    expect(validate.code).toBe(1);
    expect(JSON.parse(validate.stdout).errors).toEqual([
      expect.objectContaining({ row: 4, field: 'warehouse', code: 'unique_together' }),
    ]);
  });
});

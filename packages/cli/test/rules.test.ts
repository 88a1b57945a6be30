import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/run-cli.ts';

// Cross-field rules (issue 22) as a user meets them through `schemacheck validate`: their
// messages quote the other field's value, so what reaches a terminal is a cell's text.

let dir: string;
const at = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'schemacheck-rules-'));
  await writeFile(
    at('schema.json'),
    JSON.stringify({
      name: 'Orders',
      fileType: 'csv',
      fields: [
        { name: 'country', type: 'string' },
        { name: 'vat_number', type: 'string' },
        { name: 'note', type: 'string' },
      ],
      rules: [
        {
          kind: 'requiredWhen',
          field: 'vat_number',
          when: { field: 'country', op: 'isNotEmpty' },
        },
        {
          kind: 'requiredWhen',
          field: 'note',
          when: { field: 'country', op: 'isNotEmpty' },
          severity: 'warning',
          message: '{field} is missing ({other})',
        },
      ],
    }),
  );
  await writeFile(
    at('hostile.csv'),
    'country,vat_number,note\n"\x1b[2J\x1b]0;title\x07DE\r\nX\x9b31m",,\n',
  );
});

describe('text output of rule messages', () => {
  it('shows control characters of the cells a message quotes escaped, never raw', async () => {
    const run = await runCli(['validate', at('hostile.csv'), '--schema', at('schema.json')]);
    expect(run.code, run.stderr).toBe(1);
    // eslint-disable-next-line no-control-regex
    expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(run.stdout).toContain(
      'Row 2       vat_number: Required when country is "\\u001b[2J\\u001b]0;title\\u0007DE\\r\\nX\\u009b31m"',
    );
    expect(run.stdout).toContain(
      'Row 2       note: note is missing (\\u001b[2J\\u001b]0;title\\u0007DE\\r\\nX\\u009b31m)',
    );
  });
});

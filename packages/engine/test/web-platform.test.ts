// The web-standards platform (DecompressionStream, Blob) that a browser's Web Worker uses, run in
// Node 20, which has both: the same workbooks, gzip files and bombs give the same results as with
// node:zlib.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  blobSource,
  type ByteSource,
  InputRefusedError,
  parseSchemaText,
  planInputs,
  validateOpened,
  webPlatform,
} from '../src/index.ts';
import { nodePlatform } from './archive-platform.ts';
import { writeZip } from './zip-writer.ts';

const dir = join(import.meta.dirname, 'fixtures', 'xlsx');
const cases = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as {
  file: string;
  sheet?: string;
  schema: unknown;
  errors: unknown[];
}[];

async function errorsWith(
  platform: typeof webPlatform,
  source: ByteSource,
  name: string,
  c = cases[2]!,
) {
  const checked = parseSchemaText(JSON.stringify(c.schema));
  if (!checked.ok) throw new Error('bad schema');
  const choice = c.sheet ? { schema: checked.value, sheet: c.sheet } : { schema: checked.value };
  const out = [];
  for (const plan of await planInputs(name, source, platform, choice)) {
    const result = await validateOpened(checked.value, await plan.open());
    out.push(result.errors.map((e) => [e.cell ?? null, e.row, e.field, e.code, e.value]));
  }
  return out;
}

describe('the web platform (DecompressionStream and Blob)', () => {
  it('reads a workbook from a Blob with the errors of the corpus', async () => {
    for (const c of cases) {
      const bytes = readFileSync(join(dir, c.file));
      const errors = await errorsWith(webPlatform, blobSource(new Blob([bytes])), c.file, c);
      expect(errors).toEqual([c.errors]);
    }
  });

  it('reads gzip and zip as node:zlib does', async () => {
    const csv = 'order,customer,email,placed,paid_at,total,status,sku\nA-1,Ann,x,,,1,paid,000001\n';
    const gz = gzipSync(csv);
    const zip = writeZip([{ name: 'a.csv', data: csv, deflate: true }]);
    for (const [name, bytes] of [
      ['a.csv.gz', gz],
      ['a.zip', zip],
    ] as const) {
      const web = await errorsWith(webPlatform, blobSource(new Blob([bytes])), name);
      const node = await errorsWith(nodePlatform, blobSource(new Blob([bytes])), name);
      expect(web).toEqual(node);
      expect(web[0]).toHaveLength(1);
    }
  });

  it('refuses a gzip bomb as quickly', async () => {
    const member = gzipSync(Buffer.alloc(16 << 20));
    const source: ByteSource = {
      size: member.length * 640,
      read: async (offset, length) => {
        const at = offset % member.length;
        return member.subarray(at, Math.min(member.length, at + length));
      },
    };
    const started = performance.now();
    const refusal = (async () => {
      const [plan] = await planInputs('zeros.csv.gz', source, webPlatform, {});
      for await (const _ of (await plan!.open()).chunks) void _;
    })();
    await expect(refusal).rejects.toBeInstanceOf(InputRefusedError);
    await expect(refusal).rejects.toThrow(/100 times its compressed size/);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

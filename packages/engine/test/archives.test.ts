// gzip and zip read transparently, and every zip-bomb guard: each refusal is an
// InputRefusedError with its reason, found before the memory is spent.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  type ByteSource,
  bytesSource,
  InputRefusedError,
  openStream,
  parseSchemaText,
  planInputs,
  validateOpened,
} from '../src/index.ts';
import { nodePlatform } from './archive-platform.ts';
import { writeZip } from './zip-writer.ts';

const schema = (() => {
  const checked = parseSchemaText(
    JSON.stringify({ name: 't', fields: [{ name: 'id', type: 'integer', required: true }] }),
  );
  if (!checked.ok) throw new Error('bad schema');
  return checked.value;
})();

const CSV = 'id\n1\nx\n3\n';
const JSON_TEXT = '[{"id":1},{"id":"x"}]';

async function errorsOf(name: string, bytes: Uint8Array, choice = {}) {
  const plans = await planInputs(name, bytesSource(bytes), nodePlatform, { schema, ...choice });
  const out: { name: string; errors: [number, string, string][] }[] = [];
  for (const plan of plans) {
    const result = await validateOpened(schema, await plan.open());
    out.push({ name: plan.name, errors: result.errors.map((e) => [e.row, e.field, e.code]) });
  }
  return out;
}

async function refusal(work: () => Promise<unknown>): Promise<InputRefusedError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof InputRefusedError) return error;
    throw error;
  }
  throw new Error('not refused');
}

const openAll =
  (name: string, bytes: Uint8Array, choice = {}) =>
  async () => {
    for (const plan of await planInputs(name, bytesSource(bytes), nodePlatform, choice)) {
      const opened = await plan.open();
      for await (const _ of opened.chunks) void _;
    }
  };

describe('gzip and zip read transparently', () => {
  const plain = [{ name: 'a.csv', errors: [[3, 'id', 'type']] }];

  it('gives a .csv.gz the same errors as the CSV, by name or by magic bytes alone', async () => {
    expect(await errorsOf('a.csv', Buffer.from(CSV))).toEqual(plain);
    expect((await errorsOf('a.csv.gz', gzipSync(CSV)))[0]!.errors).toEqual(plain[0]!.errors);
    expect((await errorsOf('upload', gzipSync(CSV)))[0]!.errors).toEqual(plain[0]!.errors);
    expect((await errorsOf('a.json.gz', gzipSync(JSON_TEXT)))[0]!.errors).toEqual([
      [2, 'id', 'type'],
    ]);
  });

  it('reads a gzip stream too (standard input, a request body)', async () => {
    async function* body() {
      yield gzipSync(CSV);
    }
    const opened = await openStream('stdin', body(), nodePlatform, { schema });
    expect(opened.compression).toBe('gzip');
    const result = await validateOpened(schema, opened);
    expect(result.errors.map((e) => e.row)).toEqual([3]);
  });

  it('reads a zip holding one file, or every data file in turn, or the one named', async () => {
    const zip = writeZip([
      { name: 'data/a.csv', data: CSV, deflate: true },
      { name: 'data/', data: '' },
      { name: '__MACOSX/data/._a.csv', data: 'junk' },
      { name: 'b.ndjson', data: '{"id":1}\n{"id":2.5}\n' },
      { name: 'README.md', data: 'not data' },
    ]);
    expect(await errorsOf('export.zip', zip)).toEqual([
      { name: 'export.zip:data/a.csv', errors: [[3, 'id', 'type']] },
      { name: 'export.zip:b.ndjson', errors: [[2, 'id', 'type']] },
    ]);
    expect(await errorsOf('export.zip', zip, { entry: 'b.ndjson' })).toEqual([
      { name: 'export.zip:b.ndjson', errors: [[2, 'id', 'type']] },
    ]);
    const missing = await refusal(() => errorsOf('export.zip', zip, { entry: 'c.csv' }));
    expect(missing.code).toBe('entry_not_found');
    expect(missing.message).toMatch(
      /no entry "c.csv"; its files are data\/a.csv, b.ndjson, README.md/,
    );
  });

  it('reads a workbook inside a zip', async () => {
    const { readFileSync } = await import('node:fs');
    const book = readFileSync(new URL('fixtures/xlsx/dates-1904.xlsx', import.meta.url));
    const zip = writeZip([{ name: 'dates.xlsx', data: book }]);
    const [plan] = await planInputs('x.zip', bytesSource(zip), nodePlatform, {});
    const opened = await plan!.open();
    expect(opened.format).toBe('xlsx');
    expect(opened.compression).toBe('zip');
  });
});

describe('refusals', () => {
  it('refuses a 10 GB gzip of zeros within its first megabytes, in flat memory', async () => {
    // 640 gzip members of 16 MiB of zeros each: 10 GiB once inflated, made as it is read.
    const member = gzipSync(Buffer.alloc(16 << 20));
    let sent = 0;
    const source: ByteSource = {
      size: member.length * 640,
      read: async (offset, length) => {
        const at = offset % member.length;
        const piece = member.subarray(at, Math.min(member.length, at + length));
        sent += piece.length;
        return piece;
      },
    };
    const before = process.memoryUsage().rss;
    const started = performance.now();
    const error = await refusal(async () => {
      const [plan] = await planInputs('zeros.csv.gz', source, nodePlatform, { schema });
      await validateOpened(schema, await plan!.open());
    });
    expect(error.code).toBe('compression_ratio');
    expect(error.message).toMatch(/decompresses to more than 100 times its compressed size/);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(sent).toBeLessThan(4 << 20);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 << 20);
  });

  it('applies the size limit to the decompressed bytes', async () => {
    const text = `id\n${'1\n'.repeat(100_000)}`;
    const error = await refusal(
      openAll('big.csv.gz', gzipSync(text), { limits: { maxBytes: 50_000, maxRatio: 10_000 } }),
    );
    expect(error.code).toBe('too_large');
    expect(error.message).toMatch(/larger than 49 KiB once decompressed/);
    const zip = writeZip([{ name: 'big.csv', data: text, deflate: true }]);
    const fromZip = await refusal(openAll('big.zip', zip, { limits: { maxBytes: 50_000 } }));
    expect(fromZip.code).toBe('too_large'); // from the declared size, before inflating
  });

  it('refuses a zip entry whose declared ratio or real size betrays a bomb', async () => {
    const zeros = Buffer.alloc(64 << 20);
    const declared = await refusal(
      openAll('bomb.zip', writeZip([{ name: 'z.csv', data: zeros, deflate: true }])),
    );
    expect(declared.code).toBe('compression_ratio');
    const lying = writeZip([{ name: 'z.csv', data: zeros, deflate: true, declaredSize: 1000 }]);
    const lie = await refusal(openAll('lie.zip', lying));
    expect(['corrupt_archive', 'compression_ratio']).toContain(lie.code);
  });

  it('refuses a 42.zip-style nested archive', async () => {
    const inner = writeZip(
      Array.from({ length: 16 }, (_, i) => ({
        name: `${i}.csv`,
        data: Buffer.alloc(1 << 20),
        deflate: true,
      })),
    );
    let layer = inner;
    for (let depth = 0; depth < 4; depth++) {
      layer = writeZip(
        Array.from({ length: 16 }, (_, i) => ({
          name: `lib ${i}.zip`,
          data: layer,
          deflate: true,
        })),
      );
    }
    const error = await refusal(openAll('42.zip', layer));
    expect(error.code).toBe('nested_archive');
    expect(error.message).toMatch(/holds another archive \(lib 0.zip\)/);
    // A gzip of a zip, and a zip entry that is a zip under another name, are nested too.
    expect((await refusal(openAll('x.csv.gz', gzipSync(inner)))).code).toBe('nested_archive');
    expect(
      (await refusal(openAll('x.zip', writeZip([{ name: 'x.csv', data: gzipSync(CSV) }])))).code,
    ).toBe('nested_archive');
  });

  it('refuses a 100,000-entry zip from its end record, before reading the directory', async () => {
    const zip = writeZip(
      Array.from({ length: 100_000 }, (_, i) => ({ name: `${i}.csv`, data: '' })),
    );
    const reads: number[] = [];
    const source = bytesSource(zip);
    const counting: ByteSource = {
      size: source.size,
      read: (o, l) => (reads.push(l), source.read(o, l)),
    };
    const started = performance.now();
    const error = await refusal(() => planInputs('many.zip', counting, nodePlatform, {}));
    expect(error.code).toBe('too_many_entries');
    expect(error.message).toMatch(/lists 100,000 entries; at most 1,000 are read/);
    expect(Math.max(...reads)).toBeLessThan(70_000);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('refuses encrypted entries', async () => {
    const encrypted = writeZip([{ name: 'a.csv', data: CSV, encrypted: true }]);
    expect((await refusal(openAll('e.zip', encrypted))).code).toBe('encrypted');
  });

  it('refuses .xls and password-protected workbooks (OLE files) with what to do', async () => {
    const ole = (names: string[]) => {
      const bytes = Buffer.alloc(512 * 3);
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(bytes);
      bytes.writeUInt16LE(9, 0x1e); // 512-byte sectors
      bytes.writeUInt32LE(0, 0x30); // the directory is sector 0, right after the header
      names.forEach((name, i) => {
        const at = 512 + i * 128;
        bytes.write(name, at, 'utf16le');
        bytes.writeUInt16LE((name.length + 1) * 2, at + 0x40);
      });
      return bytes;
    };
    const xls = await refusal(openAll('old.xls', ole(['Root Entry', 'Workbook'])));
    expect(xls.code).toBe('xls');
    expect(xls.message).toMatch(/old binary Excel file \(\.xls\).*save it as \.xlsx or CSV/);
    const locked = await refusal(
      openAll('locked.xlsx', ole(['Root Entry', 'EncryptionInfo', 'EncryptedPackage'])),
    );
    expect(locked.code).toBe('encrypted_workbook');
    expect(locked.message).toMatch(/password-protected workbook/);
    // By content, whatever the name says.
    expect((await refusal(openAll('data.csv', ole(['Root Entry', 'Workbook'])))).code).toBe('xls');
  });
});

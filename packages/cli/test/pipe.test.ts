import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

// The built CLI writing into a pipe whose reader goes away, as `schemacheck … | head -1` does: the
// run ends quietly (nothing on stderr) with the exit status it would have had (issue 27).

const BIN = fileURLToPath(new URL('../bin/schemacheck.js', import.meta.url));
const PACKAGE = JSON.parse(
  readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8'),
) as { version: string };

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** Bytes of standard output read before the reader closed. */
  read: number;
}

/**
 * Runs the CLI with its standard output read by a reader that closes after `readBytes` bytes
 * (0: closes before anything arrives), as `| head -c` does.
 */
function cliIntoClosingReader(args: string[], readBytes: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let read = 0;
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    if (readBytes === 0) child.stdout.destroy();
    else
      child.stdout.on('data', (d: Buffer) => {
        read += d.length;
        if (read >= readBytes) child.stdout.destroy();
      });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, stderr, read }));
  });
}

let dir: string;
const schema = {
  name: 'Contacts',
  fileType: 'csv',
  fields: [
    { name: 'id', type: 'integer', required: true, validation: { minValue: 1 } },
    { name: 'email', type: 'email', required: true, validation: {} },
  ],
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'schemacheck-pipe-'));
  await writeFile(join(dir, 'schema.json'), JSON.stringify(schema));
  // 20,000 rows with two errors each: every format's output is far larger than a pipe's buffer.
  const bad = ['id,email'];
  for (let i = 0; i < 20_000; i++) bad.push(`x${i},not-an-email-${i}`);
  await writeFile(join(dir, 'bad.csv'), bad.join('\n') + '\n');
  const good = ['id,email'];
  for (let i = 1; i <= 20_000; i++) good.push(`${i},person${i}@example.com`);
  await writeFile(join(dir, 'good.csv'), good.join('\n') + '\n');
});

const validate = (file: string, format: string) => [
  'validate',
  join(dir, file),
  '--schema',
  join(dir, 'schema.json'),
  '--format',
  format,
  '--max-errors',
  '100000',
];

describe('a closed standard output', () => {
  for (const format of ['csv', 'github', 'junit', 'json', 'text']) {
    for (const readBytes of [0, 100]) {
      it(`--format ${format}, reader closing after ${readBytes} bytes: quiet, exit 1`, async () => {
        const run = await cliIntoClosingReader(validate('bad.csv', format), readBytes);
        expect(run.stderr).toBe('');
        expect(run.signal).toBeNull();
        expect(run.code).toBe(1);
      });
    }
  }

  it('a valid file whose CSV report is cut off still exits 0', async () => {
    const run = await cliIntoClosingReader(validate('good.csv', 'csv'), 0);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it('--help into a closed reader exits 0 quietly', async () => {
    const run = await cliIntoClosingReader(['--help'], 0);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });
});

describe('--version', () => {
  it("prints the package's version, inlined at build", async () => {
    for (const flag of ['--version', '-v']) {
      const output = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, flag]);
        let stdout = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
        child.on('close', (code) => resolve({ code, stdout }));
      });
      expect(output).toEqual({ code: 0, stdout: `schemacheck ${PACKAGE.version}\n` });
    }
    const built = readFileSync(fileURLToPath(new URL('../dist/schemacheck.js', import.meta.url)));
    expect(built.toString()).toContain(JSON.stringify(PACKAGE.version));
  });
});

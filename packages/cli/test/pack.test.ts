// The CLI as a real package: `npm pack` gives a tarball that depends on nothing from this
// repository, installs offline into an empty prefix and runs there, without TypeScript tooling.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const CLI_DIR = fileURLToPath(new URL('..', import.meta.url));

let work: string;
let tarball: string;
let bin: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'schemacheck-pack-'));
  // npm_config_* from an outer `npm run` would point npm at this repository's settings.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')),
  );
  const packed = await run('npm', ['pack', '--pack-destination', work, '--silent'], {
    cwd: CLI_DIR,
    env,
  });
  tarball = join(work, packed.stdout.trim().split('\n').at(-1)!);
  const prefix = join(work, 'prefix');
  await run(
    'npm',
    ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball],
    { cwd: work, env },
  );
  bin = join(prefix, 'bin', 'schemacheck');
}, 120_000);

describe('the packed CLI', () => {
  it('declares no dependency, ships built JavaScript and no TypeScript', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n');
    expect(files).toContain('package/dist/schemacheck.js');
    expect(files.filter((f) => /\.tsx?$/.test(f))).toEqual([]);
    const manifest = JSON.parse(
      (await run('tar', ['-xzOf', tarball, 'package/package.json'])).stdout,
    );
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.bin).toEqual({ schemacheck: 'bin/schemacheck.js' });
  });

  it('installs into an empty prefix and validates there, from any folder', async () => {
    const installed = join(work, 'prefix', 'lib', 'node_modules', 'schemacheck');
    // Nothing but the package itself: no node_modules of its own, no link into this repository.
    expect((await readdir(installed)).sort()).toEqual([
      'LICENSE',
      'README.md',
      'bin',
      'dist',
      'package.json',
    ]);
    const code = await Promise.all(
      (await readdir(join(installed, 'dist', 'chunks')))
        .filter((f) => f.endsWith('.js'))
        .map((f) => readFile(join(installed, 'dist', 'chunks', f), 'utf8')),
    );
    expect(code.join('\n')).not.toMatch(/from ["'](@schemacheck\/|tsx)/);

    await writeFile(
      join(work, 'schema.json'),
      JSON.stringify({
        name: 'n',
        fields: [{ name: 'n', type: 'integer', required: true, validation: { minValue: 1 } }],
      }),
    );
    await writeFile(join(work, 'ok.csv'), 'n\n1\n2\n');
    await writeFile(join(work, 'bad.csv'), 'n\n0\n');
    const ok = await run(bin, ['validate', 'ok.csv', '--schema', 'schema.json'], { cwd: work });
    expect(ok.stdout).toContain('ok.csv is valid: 2 rows checked');
    const bad = await run(bin, ['validate', 'ok.csv', 'bad.csv', '--schema', 'schema.json'], {
      cwd: work,
    }).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string }) => error,
    );
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('2 files checked: 1 valid, 1 with errors (1 error).');
  });
});

// The CLI is published as `schemacheck` (decision 170): `npm publish --dry-run` must pass with the
// manifest a registry and `npx schemacheck` rely on. The dry run is made offline, through a proxy
// that refuses every connection, so the test proves it needs no registry (and publishes nothing).
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const CLI_DIR = fileURLToPath(new URL('..', import.meta.url));

interface DryRun {
  name: string;
  version: string;
  files: { path: string }[];
}

let output: { stdout: string; stderr: string };
let dryRun: DryRun;

beforeAll(async () => {
  // npm_config_* from an outer `npm run` would point npm at this repository's settings.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')),
  );
  const unreachable = 'http://127.0.0.1:9';
  output = await run(
    'npm',
    [
      'publish',
      '--dry-run',
      '--json',
      '--offline',
      '--ignore-scripts',
      `--proxy=${unreachable}`,
      `--https-proxy=${unreachable}`,
    ],
    { cwd: CLI_DIR, env },
  );
  // npm 11 keys the result by package name; older versions print the object itself.
  const parsed = JSON.parse(output.stdout) as DryRun | Record<string, DryRun>;
  dryRun = 'files' in parsed ? (parsed as DryRun) : (parsed as Record<string, DryRun>).schemacheck!;
}, 120_000);

describe('npm publish --dry-run', () => {
  it('passes offline and would publish schemacheck with its README and licence', () => {
    expect(output.stderr).toContain('Publishing to https://registry.npmjs.org/');
    expect(output.stderr).toContain('(dry-run)');
    expect(dryRun.name).toBe('schemacheck');
    const paths = dryRun.files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'package.json']));
    expect(paths).toContain('bin/schemacheck.js');
    expect(paths).toContain('dist/schemacheck.js');
    expect(paths.filter((p) => p.startsWith('src/') || p.startsWith('test/'))).toEqual([]);
  });

  it('has the manifest that npx and a provenance-signed publish need', async () => {
    const manifest = JSON.parse(await readFile(join(CLI_DIR, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(manifest.private).toBeUndefined();
    expect(manifest.license).toBe('MIT');
    expect(manifest.bin).toEqual({ schemacheck: 'bin/schemacheck.js' });
    expect(manifest.engines).toEqual({ node: '>=20.19' });
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.publishConfig).toEqual({
      access: 'public',
      provenance: true,
      registry: 'https://registry.npmjs.org/',
    });
    // Provenance is checked against the repository that built the package.
    expect(manifest.repository).toMatchObject({ type: 'git', directory: 'packages/cli' });
  });
});

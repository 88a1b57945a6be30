// The engine as a library: `npm run pack -w @schemacheck/engine` gives a tarball that a plain ESM
// consumer imports and type-checks against, with no TypeScript sources and no Node built-ins.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ENGINE = fileURLToPath(new URL('..', import.meta.url));
const REPO = join(ENGINE, '../..');

let consumer: string;
let tarball: string;

beforeAll(async () => {
  const packed = await run(process.execPath, [join(ENGINE, 'scripts/pack.js')], { cwd: ENGINE });
  tarball = packed.stdout.trim().split('\n').at(-1)!;
  consumer = await mkdtemp(join(tmpdir(), 'schemacheck-engine-consumer-'));
  const installed = join(consumer, 'node_modules/@schemacheck/engine');
  await mkdir(installed, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
  // The one dependency, as npm would install it (offline: the copy this repository has).
  await symlink(join(REPO, 'node_modules/re2js'), join(consumer, 'node_modules/re2js'));
  await writeFile(join(consumer, 'package.json'), '{"type":"module","private":true}\n');
}, 180_000);

describe('the packed engine', () => {
  it('ships ESM, declarations and the README; depends on re2js only', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n');
    expect(files).toEqual(
      expect.arrayContaining([
        'package/dist/index.js',
        'package/dist/index.d.ts',
        'package/README.md',
      ]),
    );
    expect(files.filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
    const manifest = JSON.parse(
      await readFile(join(consumer, 'node_modules/@schemacheck/engine/package.json'), 'utf8'),
    );
    expect(Object.keys(manifest.dependencies)).toEqual(['re2js']);
    expect(manifest.exports['.']).toEqual({
      types: './dist/index.d.ts',
      import: './dist/index.js',
    });
    const code = await readFile(
      join(consumer, 'node_modules/@schemacheck/engine/dist/index.js'),
      'utf8',
    );
    expect(code).not.toMatch(/from ["']node:|require\(/);
  });

  it('validates when imported by a plain ESM program', async () => {
    await writeFile(
      join(consumer, 'main.js'),
      `import { parseSchema, validateBytes } from '@schemacheck/engine';
const checked = parseSchema({ name: 'n', fields: [{ name: 'n', type: 'integer', required: true, validation: {} }] });
const result = validateBytes(checked.value, new TextEncoder().encode('n\\n1\\nx\\n'), { fileType: 'csv' });
console.log(JSON.stringify([result.totalRows, result.errorCount, result.errors[0].message]));
`,
    );
    const { stdout } = await run(process.execPath, ['main.js'], { cwd: consumer });
    expect(JSON.parse(stdout)).toEqual([2, 1, 'Must be a whole number']);
  });

  it('type-checks a consumer against its declarations', async () => {
    await writeFile(
      join(consumer, 'use.ts'),
      `import { parseSchemaText, type ValidationResult } from '@schemacheck/engine';
const checked = parseSchemaText('{}');
export const count: number = checked.ok ? checked.value.fields.length : checked.problems.length;
export type R = ValidationResult['errors'][number]['row'];
// @ts-expect-error: not a warning code
export const wrong: ValidationResult['warnings'][number]['code'] = 'nope';
`,
    );
    const tsc = join(REPO, 'node_modules/typescript/bin/tsc');
    await run(
      process.execPath,
      [
        tsc,
        '--strict',
        '--noEmit',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--lib',
        'es2022',
        'use.ts',
      ],
      { cwd: consumer },
    );
  }, 120_000);
});

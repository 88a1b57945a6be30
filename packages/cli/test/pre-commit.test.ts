// The pre-commit hook definition (.pre-commit-hooks.yaml at the repository root): read as
// pre-commit reads it, its entry run as pre-commit runs it (entry, then the user's args, then the
// staged file names) in a project that has the packed CLI installed, with npm offline, so that the
// pinned `npx schemacheck@<version>` resolves to the local copy and nothing is fetched.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CLI_DIR = join(ROOT, 'packages/cli');

interface Hook {
  id: string;
  name: string;
  entry: string;
  language: string;
  files: string;
  pass_filenames?: boolean;
}

const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')),
);
const offline = { ...cleanEnv, npm_config_offline: 'true' };

let hooks: Hook[];
let project: string;

beforeAll(async () => {
  hooks = parse(await readFile(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];
  project = await mkdtemp(join(tmpdir(), 'schemacheck-pre-commit-'));
  const packed = await run(
    'npm',
    ['pack', '--pack-destination', project, '--silent', '--ignore-scripts'],
    { cwd: CLI_DIR, env: cleanEnv },
  );
  const tarball = join(project, packed.stdout.trim().split('\n').at(-1)!);
  await writeFile(join(project, 'package.json'), '{"name":"data-repo","private":true}\n');
  await run('npm', ['install', '--no-audit', '--no-fund', '--save-dev', tarball], {
    cwd: project,
    env: offline,
  });
  await mkdir(join(project, 'data'));
  await writeFile(
    join(project, 'schema.json'),
    JSON.stringify({
      name: 'prices',
      fields: [
        { name: 'sku', type: 'string', required: true },
        { name: 'price', type: 'number', required: true, validation: { minValue: 0 } },
      ],
    }),
  );
  await writeFile(join(project, 'data', 'ok.csv'), 'sku,price\nA1,1.50\n');
  await writeFile(join(project, 'data', 'bad.csv'), 'sku,price\nA1,-3\n,2\n');
}, 120_000);

/** Runs the hook's entry as pre-commit does: entry, args, then the file names, from the repo root. */
async function runHook(hook: Hook, args: string[], files: string[]) {
  const command = [hook.entry, ...args, ...files].join(' ');
  return run('sh', ['-c', command], { cwd: project, env: offline }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

describe('.pre-commit-hooks.yaml', () => {
  it('defines the schemacheck hook on data files, pinned to the packaged CLI version', async () => {
    expect(hooks.map((h) => h.id)).toEqual(['schemacheck']);
    const hook = hooks[0]!;
    expect(hook.language).toBe('system');
    expect(hook.pass_filenames).toBe(true);
    const { version } = JSON.parse(await readFile(join(CLI_DIR, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(hook.entry).toBe(`npx --yes schemacheck@${version} validate`);
    // pre-commit matches `files` as a Python regular expression; this one reads the same in JS.
    const files = new RegExp(hook.files);
    for (const f of ['data/a.csv', 'b.tsv', 'c.json', 'd.ndjson', 'e.jsonl', 'f.xlsx'])
      expect(files.test(f)).toBe(true);
    for (const f of ['schema.ts', 'README.md', 'a.csv.bak']) expect(files.test(f)).toBe(false);
  });

  it('passes on valid files and fails a commit whose files have errors', async () => {
    const hook = hooks[0]!;
    const ok = await runHook(hook, ['--schema', 'schema.json'], ['data/ok.csv']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('data/ok.csv is valid: 1 row checked');

    const bad = await runHook(hook, ['--schema', 'schema.json'], ['data/ok.csv', 'data/bad.csv']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('price: Must be at least 0');
    expect(bad.stdout).toContain('sku: ');
    expect(bad.stdout).toContain('2 files checked: 1 valid, 1 with errors (2 errors).');
  });

  it('refuses a missing schema with status 2', async () => {
    const missing = await runHook(hooks[0]!, ['--schema', 'nope.json'], ['data/ok.csv']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.json');
  });
});

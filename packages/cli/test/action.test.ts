// The GitHub Action (action.yml at the repository root) run here as a runner would run it: its
// steps are read from action.yml, their `${{ }}` expressions evaluated against the inputs and the
// earlier steps' outputs, and each `run:` step executed with bash in a sample repository (data/*.csv
// and schema.json), with the packed CLI as the `cli` input so that nothing is fetched.
import { execFile, spawnSync } from 'node:child_process';
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

interface Step {
  id?: string;
  if?: string;
  uses?: string;
  shell?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface Action {
  inputs: Record<string, { required?: boolean; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

// npm_config_* from an outer `npm run` would point npm at this repository's settings.
const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')),
);

let action: Action;
let tarball: string;

beforeAll(async () => {
  action = parse(await readFile(join(ROOT, 'action.yml'), 'utf8')) as Action;
  const work = await mkdtemp(join(tmpdir(), 'schemacheck-action-pack-'));
  const packed = await run(
    'npm',
    ['pack', '--pack-destination', work, '--silent', '--ignore-scripts'],
    { cwd: CLI_DIR, env: cleanEnv },
  );
  tarball = join(work, packed.stdout.trim().split('\n').at(-1)!);
}, 120_000);

type Context = { inputs: Record<string, string>; steps: Record<string, Record<string, string>> };

/** Evaluates the small part of GitHub's expression language that action.yml uses. */
function evaluate(expression: string, context: Context): string | boolean {
  const body = expression.replace(/^\$\{\{\s*|\s*\}\}$/g, '');
  const js = body
    .replace(/\balways\(\)/g, 'true')
    .replace(/\binputs\.([\w-]+)/g, (_, name: string) => JSON.stringify(context.inputs[name] ?? ''))
    .replace(/\bsteps\.([\w-]+)\.outputs\.([\w-]+)/g, (_, id: string, name: string) =>
      JSON.stringify(context.steps[id]?.[name] ?? ''),
    )
    .replace(/==/g, '===')
    .replace(/!===/g, '!==');
  return new Function(`return (${js});`)() as string | boolean;
}

function interpolate(text: string, context: Context): string {
  return text.replace(/\$\{\{[^}]*\}\}/g, (e) => String(evaluate(e, context)));
}

interface Ran {
  step: Step;
  status: number;
  stdout: string;
  stderr: string;
}

async function runAction(repo: string, withInputs: Record<string, string>) {
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) inputs[name] = spec.default ?? '';
  Object.assign(inputs, { cli: tarball }, withInputs);
  const context: Context = { inputs, steps: {} };
  const runnerTemp = await mkdtemp(join(tmpdir(), 'schemacheck-runner-'));
  const summary = join(runnerTemp, 'summary.md');
  const ran: Ran[] = [];
  const skipped: Step[] = [];
  let failed = false;
  for (const step of action.runs.steps) {
    // A step without `if` runs only while every earlier step succeeded (GitHub's success()).
    const wanted = step.if ? Boolean(evaluate(step.if, context)) : !failed;
    if (!wanted || step.uses) {
      // `uses:` steps (the artifact upload) are checked by the tests, not run here.
      if (!wanted) skipped.push(step);
      else ran.push({ step, status: 0, stdout: '', stderr: '' });
      continue;
    }
    const outputFile = join(runnerTemp, `output-${ran.length}`);
    await writeFile(outputFile, '');
    const env: Record<string, string> = {
      ...(cleanEnv as Record<string, string>),
      GITHUB_ACTION_PATH: ROOT,
      GITHUB_WORKSPACE: repo,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summary,
      RUNNER_TEMP: runnerTemp,
      // The tarball installs without the registry; a fetch would fail the test.
      npm_config_offline: 'true',
    };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = interpolate(v, context);
    expect(step.shell).toBe('bash');
    const result = spawnSync('bash', ['-e', '-c', step.run!], { cwd: repo, env, encoding: 'utf8' });
    ran.push({ step, status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr });
    if (result.status !== 0) failed = true;
    if (step.id) {
      const lines = (await readFile(outputFile, 'utf8')).split('\n').filter(Boolean);
      context.steps[step.id] = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
    }
  }
  const outputs = Object.fromEntries(
    Object.entries(action.outputs).map(([k, o]) => [k, String(evaluate(o.value, context))]),
  );
  const summaryText = await readFile(summary, 'utf8').catch(() => '');
  return { ran, skipped, outputs, context, summary: summaryText, failed };
}

async function sampleRepository(): Promise<string> {
  const repo = await mkdtemp(join(tmpdir(), 'schemacheck-action-repo-'));
  await mkdir(join(repo, 'data', 'archive'), { recursive: true });
  await writeFile(
    join(repo, 'schema.json'),
    JSON.stringify({
      name: 'orders',
      fields: [
        { name: 'id', type: 'integer', required: true, validation: { minValue: 1 } },
        { name: 'email', type: 'email', required: true },
      ],
    }),
  );
  await writeFile(join(repo, 'data', 'good.csv'), 'id,email\n1,a@example.com\n2,b@example.com\n');
  await writeFile(join(repo, 'data', 'bad.csv'), 'id,email\n1,a@example.com\n0,not-an-email\n');
  await writeFile(join(repo, 'data', 'archive', 'old.csv'), 'id,email\n7,c@example.com\n');
  return repo;
}

describe('the GitHub Action', () => {
  it('is a composite action that runs the script, uploads the JUnit file and then fails', () => {
    expect(action.runs.using).toBe('composite');
    const [runStep, upload, verdict] = action.runs.steps;
    expect(runStep!.run).toContain('$GITHUB_ACTION_PATH/action/run.sh');
    expect(upload!.uses).toBe('actions/upload-artifact@v4');
    expect(upload!.with!.path).toBe('${{ steps.run.outputs.junit-file }}');
    // The upload runs even when an earlier step failed.
    expect(upload!.if).toContain('always()');
    expect(verdict!.run).toContain('exit "$EXIT_CODE"');
    expect(action.inputs.files!.required).toBe(true);
    expect(action.inputs.schema!.required).toBe(true);
  });

  it('annotates each error on its line, writes the JUnit report and fails the job', async () => {
    const repo = await sampleRepository();
    const result = await runAction(repo, {
      files: 'data/**/*.csv',
      schema: 'schema.json',
      'junit-file': 'reports/schemacheck.xml',
    });
    const [main, upload, verdict] = result.ran;
    expect(main!.status).toBe(0);
    expect(main!.stdout).toContain(
      '::error file=data/bad.csv,line=3,title=schemacheck minimum::row 3, id: Must be at least 1 (value: "0")',
    );
    expect(main!.stdout).toMatch(
      /::error file=data\/bad\.csv,line=3,title=schemacheck type::row 3, email:/,
    );
    expect(main!.stdout).not.toContain('file=data/good.csv');
    expect(result.outputs).toEqual({ 'exit-code': '1', 'junit-file': 'reports/schemacheck.xml' });

    // The upload step's condition holds and its path is the report just written.
    expect(upload!.step.uses).toBe('actions/upload-artifact@v4');
    expect(interpolate(upload!.step.with!.path!, result.context)).toBe('reports/schemacheck.xml');
    const junit = await readFile(join(repo, 'reports', 'schemacheck.xml'), 'utf8');
    expect(junit).toContain('<testsuites name="schemacheck" tests="3" failures="1"');
    expect(junit).toContain('name="data/archive/old.csv"');
    expect(junit).toContain('name="data/good.csv"');
    expect(junit).toMatch(/<testcase[^>]*name="data\/bad\.csv"[^>]*>\s*<failure message="2 errors/);

    expect(verdict!.status).toBe(1);
    expect(verdict!.stdout).toContain(
      '::error title=SchemaCheck::schemacheck exited with status 1',
    );
    expect(result.summary).toContain('3 file(s) against `schema.json`: ✗ a file has errors');
  }, 120_000);

  it('passes on valid files, and reports errors without failing when told to', async () => {
    const repo = await sampleRepository();
    const valid = await runAction(repo, {
      files: 'data/good.csv\n  data/archive/*.csv\n',
      schema: 'schema.json',
    });
    expect(valid.outputs['exit-code']).toBe('0');
    expect(valid.ran.map((r) => r.status)).toEqual([0, 0]);
    expect(valid.skipped).toHaveLength(1);
    expect(await readFile(join(repo, 'schemacheck-junit.xml'), 'utf8')).toContain(
      'tests="2" failures="0"',
    );
    expect(valid.summary).toContain('✓ every file is valid');

    const lenient = await runAction(repo, {
      files: 'data/*.csv',
      schema: 'schema.json',
      'fail-on-errors': 'false',
      'upload-artifact': 'false',
    });
    expect(lenient.outputs['exit-code']).toBe('1');
    expect(lenient.ran).toHaveLength(1);
    expect(lenient.failed).toBe(false);
  }, 120_000);

  it('fails with an annotation when a pattern matches nothing or the schema is missing', async () => {
    const repo = await sampleRepository();
    const none = await runAction(repo, { files: 'data/*.json', schema: 'schema.json' });
    expect(none.ran[0]!.stdout).toContain('::error title=SchemaCheck::no file matches data/*.json');
    expect(none.outputs['exit-code']).toBe('2');
    // Nothing to upload; the last step fails even with fail-on-errors false.
    expect(none.skipped.map((s) => s.uses)).toEqual(['actions/upload-artifact@v4']);
    expect(none.ran.at(-1)!.status).toBe(2);

    const noSchema = await runAction(repo, {
      files: 'data/*.csv',
      schema: 'missing.json',
      'fail-on-errors': 'false',
    });
    expect(noSchema.ran[0]!.stdout).toContain('schema file not found: missing.json');
    expect(noSchema.ran.at(-1)!.status).toBe(2);
  }, 120_000);
});

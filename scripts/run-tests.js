// `npm test`: runs every stage named on the command line (the list lives in the root
// package.json's "test" script), each as `npm run <stage>`, and keeps going when one fails so that
// one broken stage never hides the others. Records each stage's result in
// artifacts/test-stages.json, prints the summary (scripts/test-summary.js) and exits 1 if any
// stage failed or did not run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printSummary } from './test-summary.js';

const ARTIFACTS = 'artifacts';
const stages = process.argv.slice(2);
if (stages.length === 0) {
  console.error('usage: node scripts/run-tests.js <npm script> [<npm script> ...]');
  process.exit(2);
}

mkdirSync(ARTIFACTS, { recursive: true });
// Reports from an earlier run must not count in this one.
for (const name of reportNames()) rmSync(join(ARTIFACTS, name));
const results = stages.map((name) => ({ name, status: 'not run', seconds: 0, reports: [] }));
const save = () =>
  writeFileSync(join(ARTIFACTS, 'test-stages.json'), JSON.stringify(results, null, 2) + '\n');
save();

let interrupted = false;
for (const result of results) {
  if (interrupted) break;
  console.log(`\n=== stage ${result.name}`);
  const started = Date.now();
  const run = spawnSync('npm', ['run', result.name], { stdio: 'inherit' });
  result.seconds = Math.round((Date.now() - started) / 100) / 10;
  // A report written (or rewritten) during the stage belongs to it.
  result.reports = reportNames().filter((n) => statSync(join(ARTIFACTS, n)).mtimeMs >= started);
  if (run.signal === 'SIGINT' || run.signal === 'SIGTERM') interrupted = true;
  result.status = run.status === 0 ? 'passed' : 'failed';
  save();
}

const { failed } = printSummary(ARTIFACTS);
process.exit(failed > 0 ? 1 : 0);

function reportNames() {
  return readdirSync(ARTIFACTS).filter((n) => /^vitest-.*\.json$/.test(n));
}

// The closing summary of `npm test`: each stage with its result (including stages that did not
// run); each failed test, and each that passed only on a retry, with the first line of its failure
// (CI keeps only a log's tail, so the summary must name what failed); the files that failed outside
// any test (a file that does not load has no failed test); and a last line "N passed, N failed".
// It never reads as a pass when anything failed: a failed or unrun stage with no failed test of its
// own (typecheck, lint, a crash) counts as one failure.
// Run on its own (`node scripts/test-summary.js [artifacts]`) it prints the same from the files
// `npm test` left behind; .ci/run does that so the summary is the log's last line.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Reads artifacts/test-stages.json and artifacts/vitest-*.json; prints; returns the counts. */
export function printSummary(dir = 'artifacts') {
  const reports = new Map();
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    if (!/^vitest-.*\.json$/.test(name)) continue;
    try {
      reports.set(name, count(JSON.parse(readFileSync(join(dir, name), 'utf8'))));
    } catch {
      reports.set(name, {
        passed: 0,
        failed: 0,
        skipped: 0,
        brokenFiles: [],
        failedTests: [],
        retriedTests: [],
        unreadable: true,
      });
    }
  }
  const stagesFile = join(dir, 'test-stages.json');
  const stages = existsSync(stagesFile) ? JSON.parse(readFileSync(stagesFile, 'utf8')) : null;

  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const lines = [];
  const add = (r) => {
    passed += r.passed;
    skipped += r.skipped;
    return r.failed + r.brokenFiles.length + (r.unreadable ? 1 : 0);
  };
  const describe = (r) =>
    `${r.passed} passed, ${r.failed} failed` +
    (r.brokenFiles.length ? `, ${r.brokenFiles.length} file(s) failed outside any test` : '') +
    (r.unreadable ? ', report unreadable' : '');
  const attributed = new Set();
  for (const stage of stages ?? []) {
    let stageFailures = 0;
    const details = [];
    for (const name of stage.reports) {
      const r = reports.get(name);
      attributed.add(name);
      if (!r) continue;
      stageFailures += add(r);
      details.push(describe(r));
    }
    // A failed or unrun stage is at least one failure, even when no test says so.
    if (stage.status !== 'passed') stageFailures = Math.max(1, stageFailures);
    failed += stageFailures;
    const time = stage.status === 'not run' ? '' : ` (${stage.seconds}s)`;
    const what = details.length ? `: ${details.join('; ')}` : '';
    lines.push(`  ${stage.status.padEnd(7)} ${stage.name}${time}${what}`);
  }
  for (const [name, r] of reports) {
    if (attributed.has(name)) continue;
    failed += add(r);
    lines.push(`  report  ${name}: ${describe(r)}`);
  }
  const broken = [...reports.values()].flatMap((r) => r.brokenFiles);
  const failedTests = [...reports.values()].flatMap((r) => r.failedTests);
  const retriedTests = [...reports.values()].flatMap((r) => r.retriedTests);

  console.log('\n=== summary');
  if (!stages) console.log('  (no test-stages.json: stage results unknown)');
  for (const line of lines) console.log(line);
  for (const test of failedTests.slice(0, MAX_LISTED)) console.log(`  failed test: ${test}`);
  if (failedTests.length > MAX_LISTED)
    console.log(`  … and ${failedTests.length - MAX_LISTED} more failed tests`);
  for (const test of retriedTests.slice(0, MAX_LISTED)) console.log(`  passed on a retry: ${test}`);
  for (const file of broken) console.log(`  file failed outside any test: ${file}`);
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  return { passed, failed, skipped };
}

/** Failed tests listed by name in the summary; the rest are counted. */
const MAX_LISTED = 20;

/**
 * One Vitest JSON report: its tests, its failed tests ("file > name: first line of the failure"),
 * and the files that failed without a failed test.
 */
function count(report) {
  const brokenFiles = [];
  const failedNames = [];
  const retriedNames = [];
  for (const file of report.testResults ?? []) {
    const path = relative(process.cwd(), file.name);
    const failedTests = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const test of file.assertionResults ?? []) {
      const reason = String(test.failureMessages?.[0] ?? '')
        .split('\n')[0]
        .slice(0, 200);
      const named = `${path} > ${test.fullName ?? test.title}${reason ? `: ${reason}` : ''}`;
      if (test.status === 'failed') failedNames.push(named);
      // A passed test with failures passed on a retry (test:node22, docs/decisions/245): a flake,
      // named so that it gets fixed, not counted as a failure.
      else if (test.status === 'passed' && reason) retriedNames.push(named);
    }
    if (file.status === 'failed' && failedTests.length === 0) brokenFiles.push(path);
  }
  // Vitest reports an error outside every file (a failed global setup) only as success: false.
  const unexplained =
    report.success === false && report.numFailedTests === 0 && brokenFiles.length === 0;
  if (unexplained) brokenFiles.push('(an error outside every test file)');
  return {
    passed: report.numPassedTests ?? 0,
    failed: report.numFailedTests ?? 0,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
    brokenFiles,
    failedTests: failedNames,
    retriedTests: retriedNames,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { failed } = printSummary(process.argv[2] ?? 'artifacts');
  process.exitCode = failed > 0 ? 1 : 0;
}

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
// @ts-expect-error: a plain ES module script, with no declarations
import { printSummary } from '../test-summary.js';

// CI keeps only the tail of its log: the summary, its last lines, must say which test failed and
// why, not only how many (a red run that names nothing cannot be fixed from its record).

describe('the test summary', () => {
  afterEach(() => vi.restoreAllMocks());

  it('names each failed test, and each passed only on a retry, with its failure’s first line', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'summary-'));
    const file = path.join(process.cwd(), 'packages/server/test/jobs.test.ts');
    writeFileSync(
      path.join(dir, 'vitest-server.json'),
      JSON.stringify({
        success: false,
        numPassedTests: 3,
        numFailedTests: 1,
        testResults: [
          {
            name: file,
            status: 'failed',
            assertionResults: [
              { status: 'passed', fullName: 'jobs runs one', failureMessages: [] },
              {
                status: 'passed',
                fullName: 'jobs retries',
                failureMessages: ['Error: Test timed out in 5000ms.\n    at stack line'],
              },
              {
                status: 'failed',
                fullName: 'jobs delivers a webhook',
                failureMessages: ['AssertionError: expected 2 to be 1\n    at stack line'],
              },
            ],
          },
        ],
      }),
    );
    writeFileSync(
      path.join(dir, 'test-stages.json'),
      JSON.stringify([
        { name: 'test:server', status: 'failed', seconds: 3, reports: ['vitest-server.json'] },
      ]),
    );
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));

    const result = printSummary(dir);

    expect(result).toMatchObject({ passed: 3, failed: 1 });
    expect(lines).toContain(
      '  failed test: packages/server/test/jobs.test.ts > jobs delivers a webhook: ' +
        'AssertionError: expected 2 to be 1',
    );
    // A test that passed only on a retry is a flake to fix: named, not counted as a failure.
    expect(lines).toContain(
      '  passed on a retry: packages/server/test/jobs.test.ts > jobs retries: ' +
        'Error: Test timed out in 5000ms.',
    );
    expect(lines.filter((line) => line.includes('jobs runs one'))).toEqual([]);
    expect(lines.at(-1)).toBe('3 passed, 1 failed');
  });
});

import { defineConfig } from 'vitest/config';

// One runner, five projects: the engine and CLI are unit tests, repo checks what `npm ci` installs;
// the server's are integration tests against a real database (PGlite by default, PostgreSQL when
// TEST_DATABASE_URL is set); e2e drives Debian's Chromium against a running server.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'engine',
          include: ['packages/engine/src/**/*.test.ts', 'packages/engine/test/**/*.test.ts'],
          // The property tests run thousands of cases; a busy machine must not turn them into timeouts.
          testTimeout: 120_000,
        },
      },
      {
        test: { name: 'cli', include: ['packages/cli/test/**/*.test.ts'], testTimeout: 60_000 },
      },
      // The repository itself: what `npm ci` installs (scripts/test/).
      { test: { name: 'repo', include: ['scripts/test/**/*.test.ts'], testTimeout: 60_000 } },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          testTimeout: 120_000,
          // beforeAll may build the web app first (e2e/support/web-build.ts): minutes when busy.
          hookTimeout: 420_000,
          fileParallelism: false,
        },
      },
    ],
  },
});

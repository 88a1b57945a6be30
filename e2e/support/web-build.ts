import { execFileSync } from 'node:child_process';

import { REPO_ROOT } from './paths.ts';

/**
 * Builds the web app once, when needed, so that the server serves the current code. The check is
 * `npm start`'s own (scripts/build-web-if-changed.js: a hash of the build's sources and a stamp
 * of the build it made), so a build made here is one that a later `npm start` does not repeat.
 */
export function ensureWebBuild(): void {
  execFileSync('node', ['scripts/build-web-if-changed.js'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Two Vite builds, the pre-render and precompression: minutes on a busy machine.
    timeout: 400_000,
  });
}

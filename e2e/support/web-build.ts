import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

import { REPO_ROOT, WEB_DIR, WEB_DIST } from './paths.ts';

/** Everything the web build reads from this repository. */
const BUILD_INPUTS = [
  path.join(WEB_DIR, 'src'),
  path.join(WEB_DIR, 'public'),
  path.join(WEB_DIR, 'scripts'),
  path.join(WEB_DIR, 'index.html'),
  path.join(WEB_DIR, 'vite.config.ts'),
  path.join(WEB_DIR, 'package.json'),
  path.join(REPO_ROOT, 'packages/contracts/src'),
  // The validators and inference run the engine in the browser.
  path.join(REPO_ROOT, 'packages/engine/src'),
];

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(entry)) {
    newest = Math.max(newest, newestMtime(path.join(entry, name)));
  }
  return newest;
}

/** True when apps/web/dist is missing or older than any of its sources. */
export function webBuildIsStale(): boolean {
  const index = path.join(WEB_DIST, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return BUILD_INPUTS.some((input) => newestMtime(input) > built);
}

/** Builds the web app once, when needed, so that the server serves the current code. */
export function ensureWebBuild(): void {
  if (!webBuildIsStale()) return;
  execFileSync('npm', ['run', 'build', '-w', '@schemacheck/web'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Two Vite builds, the pre-render and precompression: minutes on a busy machine.
    timeout: 400_000,
  });
}

// `npm start` runs this first: builds the web app (`npm run build -w @schemacheck/web`) only when
// what the build reads has changed since the last build this script made, or apps/web/dist was
// rebuilt or removed by something else. The fingerprint is a hash of the files' contents (not
// their times, which git checkouts and copies change). The origin (APP_URL, PORT) and the day are
// not part of it: the server puts them into the pages when it serves them (docs/decisions/216),
// so a restart on another port, origin or day starts at once, with no build.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const INPUTS = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/scripts',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'packages/engine/src',
  'packages/engine/package.json',
  'packages/contracts/src',
  'packages/contracts/package.json',
  'package-lock.json',
];
const STAMP = join(root, 'node_modules/.cache/schemacheck/web-build.json');
const INDEX = join(root, 'apps/web/dist/index.html');

function files(entry) {
  const full = join(root, entry);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [entry];
  return readdirSync(full)
    .sort()
    .flatMap((name) => files(join(entry, name)))
    .filter((f) => !f.endsWith('.test.ts') && !f.endsWith('.test.tsx'));
}

function fingerprint() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(files)) {
    hash.update(relative(root, join(root, file)) + '\0');
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    return null;
  }
}

const now = fingerprint();
const stamp = readStamp();
const built = existsSync(INDEX) ? statSync(INDEX).mtimeMs : null;
const fresh = stamp?.fingerprint === now && built !== null && stamp.indexMtimeMs === built;
// --check: say whether a build is due, build nothing (exit 0 up to date, 1 due).
if (process.argv.includes('--check')) {
  console.log(fresh ? 'web: up to date' : 'web: build due');
  process.exit(fresh ? 0 : 1);
}
if (fresh) {
  console.log('web: up to date (sources unchanged since the last build)');
  process.exit(0);
}

const run = spawnSync('npm', ['run', 'build', '-w', '@schemacheck/web'], {
  cwd: root,
  stdio: 'inherit',
});
if (run.status !== 0) process.exit(run.status ?? 1);
mkdirSync(dirname(STAMP), { recursive: true });
writeFileSync(
  STAMP,
  JSON.stringify({ fingerprint: now, indexMtimeMs: statSync(INDEX).mtimeMs }) + '\n',
);

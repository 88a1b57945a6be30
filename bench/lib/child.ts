// Runs one peer script in its own child process, pinned to one core, and returns its report.
// Every peer runs as plain JavaScript bundled from its TypeScript once per bench run, as the
// shipped CLI does: under a TypeScript loader each child carried the loader's thread (~37 MiB of
// RSS) and its start-up in every figure, ours and the peers' alike (decision 222).
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, resolve as resolvePath } from 'node:path';
import { build } from 'esbuild';
import type { PeerReport } from '../peers/common.ts';
import { BENCH_DIR, REPO_ROOT, env } from './env.ts';

const hasTaskset = spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;

/** The core children are pinned to: BENCH_CPU, or the last core. BENCH_PIN=0 disables pinning. */
export function pinning(): string {
  if (env('BENCH_PIN', '1') === '0' || !hasTaskset) return 'none';
  return env('BENCH_CPU', String(availableParallelism() - 1));
}

export interface ChildOptions {
  script: string;
  args: string[];
  nodeArgs?: string[];
  timeoutMs?: number;
}

export type ChildResult = { ok: true; report: PeerReport } | { ok: false; message: string };

const bundles = new Map<string, Promise<string>>();

/**
 * The peer script bundled to .bench/built/<folder>-<name>.mjs (npm packages stay imports, resolved
 * from the repo). Two folders deep, as bench/lib is, so env.ts's paths from import.meta.url hold.
 */
function bundled(script: string): Promise<string> {
  let made = bundles.get(script);
  if (!made) {
    const entry = resolvePath(REPO_ROOT, 'bench/peers', script);
    const name = `${basename(dirname(entry))}-${basename(entry, '.ts')}.mjs`;
    const outfile = join(BENCH_DIR, 'built', name);
    made = build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'silent',
    }).then(() => outfile);
    bundles.set(script, made);
  }
  return made;
}

export async function runPeer(options: ChildOptions): Promise<ChildResult> {
  const cpu = pinning();
  const nodeCommand = [
    process.execPath,
    ...(options.nodeArgs ?? []),
    await bundled(options.script),
    ...options.args,
  ];
  const [command, ...args] = cpu === 'none' ? nodeCommand : ['taskset', '-c', cpu, ...nodeCommand];
  return new Promise((resolve) => {
    const child = spawn(command as string, args, {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timeoutMs = options.timeoutMs ?? Number(env('BENCH_TIMEOUT_S', '1800')) * 1000;
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = stdout.trim().split('\n').pop() ?? '';
      if (code === 0 && line.startsWith('{')) {
        resolve({ ok: true, report: JSON.parse(line) as PeerReport });
        return;
      }
      const why = signal ? `killed by ${signal}` : `exit code ${code}`;
      const lines = (stderr.trim() || stdout.trim()).split('\n');
      // the error's own line (not the stack), else the last lines
      const errorLine = lines.find((l) => /^\s*(\w*Error\b|FATAL|engine refused)/.test(l));
      const tail = errorLine ? errorLine.trim() : lines.slice(-4).join('\n    ');
      resolve({ ok: false, message: `${options.script} ${why}\n    ${tail}` });
    });
  });
}

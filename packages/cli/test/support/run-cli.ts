import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The built CLI as a user runs it: a child process with its own standard streams, colours off.

export const BIN = fileURLToPath(new URL('../../bin/schemacheck.js', import.meta.url));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Written to standard input, which is then closed (empty by default). */
  input?: string | Uint8Array;
  cwd?: string;
  /** Added to the environment. */
  env?: Record<string, string>;
}

export function runCli(args: string[], options: RunOptions = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

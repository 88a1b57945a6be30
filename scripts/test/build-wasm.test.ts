import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The byte core's WebAssembly is committed, base64-encoded, beside the engine's code (so the
// engine needs no build step of its own): it must be what its AssemblyScript source compiles to.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const COMMITTED = 'packages/engine/src/bytecore/csv-core.wasm.ts';
const STALE = `${COMMITTED} is not what packages/engine/wasm/csv-core.ts compiles to: run \`npm run build:wasm\` and commit the result.`;

const moduleBytes = (text: string) => {
  const base64 = /export const CSV_CORE_WASM = '([A-Za-z0-9+/=]*)';/.exec(text)?.[1];
  expect(base64, `${COMMITTED} holds no CSV_CORE_WASM string`).toBeDefined();
  return Buffer.from(base64!, 'base64');
};

describe('the byte core build', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'build-wasm-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('rebuilds the committed module byte for byte', () => {
    const out = path.join(dir, 'csv-core.wasm.ts');
    execFileSync(process.execPath, ['scripts/build-wasm.js', '--out', out], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const built = readFileSync(out, 'utf8');
    const committed = readFileSync(path.join(ROOT, COMMITTED), 'utf8');
    expect(moduleBytes(committed).equals(moduleBytes(built)), STALE).toBe(true);
    expect(committed, STALE).toBe(built);
  });
});

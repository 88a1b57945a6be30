// Builds the CLI into dist/: one ESM entry (dist/schemacheck.js) plus a chunk per command, with
// the engine and its dependency inlined, so the installed package needs nothing but Node. Runs on
// `npm ci` (the root's prepare), before the CLI tests and on `npm pack` (prepack). Only files
// whose content changed are written, so a rebuild never pulls dist/ from under a running CLI.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
// `schemacheck --version` prints this; inlined so that the CLI reads no file to print it.
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const dist = join(root, 'dist');
const result = await build({
  absWorkingDir: root,
  // The worker threads of `validate --jobs N` load their own entry (src/parallel/worker.ts).
  entryPoints: { schemacheck: 'src/cli.ts', 'validate-worker': 'src/parallel/worker.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  banner: { js: '#!/usr/bin/env node' },
  define: { __SCHEMACHECK_VERSION__: JSON.stringify(version) },
  legalComments: 'linked',
  logLevel: 'warning',
  write: false,
});

const wanted = new Set();
for (const file of result.outputFiles) {
  wanted.add(file.path);
  if (existsSync(file.path) && readFileSync(file.path).equals(file.contents)) continue;
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, file.contents);
}
const stale = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? stale(join(dir, e.name))
      : wanted.has(join(dir, e.name))
        ? []
        : [join(dir, e.name)],
  );
for (const file of stale(dist)) rmSync(file);
console.log(`cli: built ${relative(root, dist)}/ (${wanted.size} files)`);

// `npm run pack -w @schemacheck/engine`: the engine as a library tarball. The workspace itself
// exports its TypeScript sources (the server, web and tests read them directly); this builds a
// separate package in packages/engine/dist/package/ (ignored like every dist/) and packs that:
//   dist/index.js     one ESM module (esbuild, browser-safe: no Node built-ins; re2js stays a
//                     dependency)
//   dist/**/*.d.ts    type declarations from tsc, with import specifiers ending in .js
//   package.json      exports { types, import }, dependency re2js, sideEffects false
//   README.md         the API (packages/engine/README.md)
// Prints the tarball's path (in packages/engine/dist/package/).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist/package');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'dist'), { recursive: true });

await build({
  absWorkingDir: root,
  entryPoints: ['src/index.ts'],
  outfile: join(out, 'dist/index.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  external: Object.keys(manifest.dependencies ?? {}),
  logLevel: 'warning',
});

const tsc = join(root, '../../node_modules/typescript/bin/tsc');
execFileSync(
  process.execPath,
  [
    tsc,
    '-p',
    root,
    '--noEmit',
    'false',
    '--declaration',
    '--emitDeclarationOnly',
    '--outDir',
    join(out, 'dist'),
  ],
  { stdio: 'inherit' },
);
// Published declarations name the files consumers have: './x.js' (resolved to ./x.d.ts).
const dts = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? dts(join(dir, e.name)) : e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
for (const file of dts(join(out, 'dist'))) {
  const text = readFileSync(file, 'utf8').replace(
    /((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]*?)\.ts(['"])/g,
    '$1$2.js$3',
  );
  writeFileSync(file, text);
}

writeFileSync(
  join(out, 'package.json'),
  `${JSON.stringify(
    {
      name: manifest.name,
      version: manifest.version,
      description: manifest.description,
      type: 'module',
      sideEffects: false,
      exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
      types: './dist/index.d.ts',
      files: ['dist'],
      dependencies: manifest.dependencies,
    },
    null,
    2,
  )}\n`,
);
cpSync(join(root, 'README.md'), join(out, 'README.md'));
const tarball = execFileSync('npm', ['pack', '--silent'], { cwd: out, encoding: 'utf8' }).trim();
console.log(join(out, tarball.split('\n').at(-1)));

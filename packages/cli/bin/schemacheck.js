#!/usr/bin/env node
// Runs the built CLI: dist/ holds plain JavaScript with the engine inlined (scripts/build.js, run
// by `npm ci` at the repository root, before the CLI tests and by `npm pack`). No TypeScript is
// compiled at run time.
try {
  await import('../dist/schemacheck.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.url).endsWith('/dist/schemacheck.js'))
    throw error;
  process.stderr.write(
    'schemacheck: the CLI is not built; run `npm run build -w packages/cli` in the repository\n',
  );
  process.exitCode = 2;
}

// Proves the engine runs in a browser: bundle it for the browser platform with no Node
// built-ins available. Any import of node:* (or a package that needs one) fails the build.
import { build } from 'esbuild';

const result = await build({
  entryPoints: ['packages/engine/src/index.ts'],
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  write: false,
  metafile: true,
  logLevel: 'silent',
}).catch((error) => {
  console.error('The engine does not bundle for the browser:');
  for (const e of error.errors ?? [error]) console.error(`  ${e.text ?? e.message}`);
  process.exit(1);
});

const bytes = result.outputFiles[0].contents.byteLength;
const inputs = Object.keys(result.metafile.inputs);
const nodeInputs = inputs.filter(
  (i) => i.startsWith('node:') || /(^|\/)node_modules\/(fs|path|buffer)\//.test(i),
);
if (nodeInputs.length > 0) {
  console.error(`The engine bundle pulls in Node modules: ${nodeInputs.join(', ')}`);
  process.exit(1);
}
console.log(
  `engine browser bundle: ${inputs.length} modules, ${(bytes / 1024).toFixed(0)} KiB, no Node imports`,
);

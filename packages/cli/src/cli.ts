// The program's entry point (bundled to dist/schemacheck.js). Commands are loaded on demand, so
// `schemacheck --help` reads almost nothing.
import { run } from './main.ts';

process.exitCode = await run(process.argv.slice(2));

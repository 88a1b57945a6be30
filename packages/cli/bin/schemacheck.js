#!/usr/bin/env node
// The workspace ships TypeScript sources; tsx compiles them on load so `npx schemacheck` works
// straight after `npm ci`, with no build step to forget.
import { register } from 'tsx/esm/api';

register();
const { run } = await import('../src/main.ts');
process.exitCode = await run(process.argv.slice(2));

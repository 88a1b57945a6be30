// Starts a validation worker thread under tsx (the server's sources are TypeScript). Node 20
// does not apply `--import tsx` from a Worker's execArgv before loading the entry module, so the
// loader is registered here first; this works under `npm start` and under Vitest alike.
import { workerData } from 'node:worker_threads';

const { register } = await import('tsx/esm/api');
register();
await import(workerData.entry);

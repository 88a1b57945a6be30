// Creates a PGlite cluster in a folder and exits. Run as a child process by client.ts: initdb
// takes the process to ~800 MB that WebAssembly never gives back, so it must not happen in the
// long-lived server. Plain JavaScript, so it starts without the TypeScript loader.
import { PGlite } from '@electric-sql/pglite';

const [dataDir, optionsJson] = process.argv.slice(2);
const db = new PGlite(dataDir, JSON.parse(optionsJson));
await db.waitReady;
await db.close();

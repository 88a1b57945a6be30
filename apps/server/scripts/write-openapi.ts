import { writeFileSync } from 'node:fs';
import { format } from 'prettier';
import { currentOpenApiDocument, SNAPSHOT_PATH } from '../src/api-v1/snapshot.ts';

// Rewrites the committed OpenAPI snapshot from the routes' contracts.
const doc = await currentOpenApiDocument();
writeFileSync(SNAPSHOT_PATH, await format(JSON.stringify(doc), { parser: 'json' }));
console.log(`Wrote ${SNAPSHOT_PATH}`);

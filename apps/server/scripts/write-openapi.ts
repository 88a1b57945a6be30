import { writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import { currentOpenApiDocument, SNAPSHOT_PATH } from '../src/api-v1/snapshot.ts';

// Rewrites the committed OpenAPI snapshot from the routes' contracts, formatted as the
// repository's prettier settings want it (so `npm run lint` accepts it).
const doc = await currentOpenApiDocument();
const options = (await resolveConfig(SNAPSHOT_PATH)) ?? {};
writeFileSync(
  SNAPSHOT_PATH,
  await format(JSON.stringify(doc), { ...options, filepath: SNAPSHOT_PATH }),
);
console.log(`Wrote ${SNAPSHOT_PATH}`);

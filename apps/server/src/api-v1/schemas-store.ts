// Saved schemas live in one module, schemas/store.ts (docs/decisions/180). This re-export only keeps
// the upload pipeline's import (api-v1/upload.ts) working until it imports schemas/store.ts; delete
// it then.
export { findOwnSchema, notFound, parsedFromRow } from '../schemas/store.ts';

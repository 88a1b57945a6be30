// The engine as the bench runs it: its public entry point, and the bench's web-form schema parsed
// by the engine's own schema parser (inside the timed region, as a caller would).
import { parseSchema, type SchemaModel } from '../../packages/engine/src/index.ts';
import { webFormSchema } from '../schema.ts';
import type { FileType } from '@schemacheck/engine';

export { createValidator } from '../../packages/engine/src/index.ts';

/** The bench schema as a SchemaModel, or exit with the engine's problems. */
export function benchSchema(fileType: FileType): { schema: SchemaModel; source: string } {
  const parsed = parseSchema(webFormSchema(fileType), 'web');
  if (!parsed.ok) {
    console.error(`engine refused the bench schema: ${JSON.stringify(parsed.problems)}`);
    process.exit(1);
  }
  return { schema: parsed.value, source: 'parseSchema(web form)' };
}

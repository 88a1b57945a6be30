// Loads the engine's public API: packages/engine/src/index.ts once the lead has wired it, the
// module files until then. Typed locally so the bench compiles whatever stage the engine is at.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { schemaModel, webFormSchema } from '../schema.ts';
import type {
  Issue,
  SchemaModel,
  SchemaProblem,
  ValidationResult,
} from '../../packages/engine/src/model.ts';

export interface EngineValidator {
  push(chunk: Uint8Array): void;
  end(): ValidationResult;
}

export interface EngineApi {
  /** Undefined while the schema parser is not written yet. */
  parseSchema?(
    input: unknown,
    format?: string,
  ): { ok: true; value: SchemaModel } | { ok: false; problems: SchemaProblem[] };
  createValidator(
    schema: SchemaModel,
    options: { fileType: 'csv' | 'json'; maxErrors?: number; onIssue?: (issue: Issue) => void },
  ): EngineValidator;
}

const SRC = new URL('../../packages/engine/src/', import.meta.url);

function exists(rel: string): boolean {
  return existsSync(fileURLToPath(new URL(rel, SRC)));
}

async function load(rel: string): Promise<Partial<EngineApi>> {
  return (await import(new URL(rel, SRC).href)) as Partial<EngineApi>;
}

export async function loadEngine(): Promise<EngineApi> {
  const api: Partial<EngineApi> = {};
  const problems: string[] = [];
  const take = async (rel: string, names: (keyof EngineApi)[]) => {
    if (names.every((n) => api[n]) || !exists(rel)) return;
    try {
      const mod = await load(rel);
      for (const n of names)
        if (!api[n] && typeof mod[n] === 'function') Object.assign(api, { [n]: mod[n] });
    } catch (e) {
      problems.push(`${rel}: ${(e as Error).message.split('\n')[0]}`);
    }
  };
  await take('index.ts', ['parseSchema', 'createValidator']);
  await take('schema/index.ts', ['parseSchema']);
  await take('validate/index.ts', ['createValidator']);
  await take('validate/validator.ts', ['createValidator']);
  if (typeof api.createValidator !== 'function') {
    throw new Error(`engine API not available yet (createValidator): ${problems.join('; ')}`);
  }
  return api as EngineApi;
}

/**
 * Parses the bench's web-form schema with the engine, or exits with the engine's problems. While
 * parseSchema does not exist yet, falls back to the hand-normalised model (reported as such).
 */
export function benchSchema(
  engine: EngineApi,
  fileType: 'csv' | 'json',
): { schema: SchemaModel; source: string } {
  if (!engine.parseSchema) {
    console.error('warning: parseSchema not available, using the hand-normalised SchemaModel');
    return { schema: schemaModel(fileType) as SchemaModel, source: 'hand-normalised model' };
  }
  const parsed = engine.parseSchema(webFormSchema(fileType), 'web');
  if (!parsed.ok) {
    console.error(`engine refused the bench schema: ${JSON.stringify(parsed.problems)}`);
    process.exit(1);
  }
  return { schema: parsed.value, source: 'parseSchema(web form)' };
}

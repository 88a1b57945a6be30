// ajv set up as a JS developer would: ajv 8 + ajv-formats, allErrors, one compiled validator.
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { AJV_OPTIONS, ajvSchema } from '../schema.ts';
import type { PairRecorder } from './common.ts';

// ajv-formats is CommonJS with `exports.default`; under ESM the default import is the module.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule;

export function compileAjv(coerceTypes: boolean) {
  const ajv = new Ajv({ ...AJV_OPTIONS, coerceTypes });
  addFormats(ajv);
  return ajv.compile(ajvSchema());
}

/** Records ajv's errors for one record as (row, field) pairs; returns the raw error count. */
export function recordAjvErrors(
  recorder: PairRecorder,
  row: number,
  errors: ErrorObject[] | null | undefined,
  record: Record<string, unknown>,
): number {
  if (!errors) return 0;
  for (const e of errors) {
    const field =
      e.keyword === 'required'
        ? String((e.params as { missingProperty: string }).missingProperty)
        : e.instancePath.slice(1).split('/')[0]!;
    recorder.add(row, field, e.keyword, e.keyword === 'required' ? null : record[field]);
  }
  return errors.length;
}

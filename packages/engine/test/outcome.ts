// Test support: what a validation gives a caller (its result, and every issue in order), pushed
// whole or in chunks of the given sizes in turn; the byte core's tests compare it with the core
// on and off.
import type { Issue, SchemaModel, ValidationResult } from '../src/model.ts';
import { createValidator, type ValidateOptions } from '../src/validate/validator.ts';

export interface Outcome {
  result: ValidationResult;
  issues: Issue[];
}

export function validateOutcome(
  schema: SchemaModel,
  bytes: Uint8Array,
  options: ValidateOptions,
  chunks?: readonly number[],
): Outcome {
  const issues: Issue[] = [];
  const v = createValidator(schema, { ...options, onIssue: (i) => issues.push(i) });
  if (chunks === undefined) v.push(bytes);
  else {
    for (let at = 0, k = 0; at < bytes.length; k++) {
      const size = chunks[k % chunks.length] as number;
      v.push(bytes.subarray(at, at + size));
      at += size;
    }
  }
  return { result: v.end(), issues };
}

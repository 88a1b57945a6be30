import type { ValidationErrorItem } from '@schemacheck/contracts';

// One error or warning of a /v1 result as sample_errors and sample_warnings give it: the engine's
// issue with `field` named `column`, its severity always said, and "did you mean" when there is
// one (docs/decisions/202).

export function sampleError(e: ValidationErrorItem) {
  return {
    row: e.row,
    column: e.field,
    code: e.code,
    message: e.message,
    value: e.value,
    ...(e.path !== undefined ? { path: e.path } : {}),
    ...(e.cell !== undefined ? { cell: e.cell } : {}),
    severity: e.severity ?? ('error' as const),
    ...(e.suggestion !== undefined ? { suggestion: e.suggestion } : {}),
  };
}

// Validation of an opened input (plain, decompressed or a workbook's sheet) in one call, for
// callers that need no per-chunk control (the server's workers, the browser, tests).

import type { SchemaModel, ValidationResult } from '../model.ts';
import { createValidator, type ValidateOptions } from '../validate/validator.ts';
import { finishResult, type OpenedInput, withCells } from './open-inputs.ts';

export type InputValidateOptions = Omit<ValidateOptions, 'fileType' | 'jsonShape'>;

/** The validator options an opened input needs (file type, JSON shape, a sheet's delimiter). */
export function validatorOptionsFor(
  opened: OpenedInput,
  options: InputValidateOptions,
): ValidateOptions {
  const out: ValidateOptions = {
    ...options,
    fileType: opened.fileType,
    onIssue: withCells(opened, options.onIssue),
  };
  if (opened.jsonShape) out.jsonShape = opened.jsonShape;
  if (opened.delimiter) out.delimiter = opened.delimiter;
  return out;
}

export async function validateOpened(
  schema: SchemaModel,
  opened: OpenedInput,
  options: InputValidateOptions = {},
): Promise<ValidationResult> {
  const validator = createValidator(schema, validatorOptionsFor(opened, options));
  for await (const chunk of opened.chunks) {
    validator.push(chunk);
    if (validator.stopped) break;
  }
  return finishResult(opened, validator.end());
}

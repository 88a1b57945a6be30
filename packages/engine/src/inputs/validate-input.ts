// Validation of an opened input (plain, decompressed or a workbook's sheet) in one call, for
// callers that need no per-chunk control (the server's workers, the browser, tests).

import type { SchemaModel, ValidationResult } from '../model.ts';
import { createValidator, type ValidateOptions, type Validator } from '../validate/validator.ts';
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

/**
 * For a caller that needs no CSV bytes of a workbook's sheet (no row outputs): the sheet's cells
 * go to the validator directly (decision 244), when it reads the sheet as the comma-separated CSV
 * it stands for, and `chunks` then carries no CSV (none in a real sheet). Any other input is left
 * as it is. Call before reading `chunks`. True when the cells go directly.
 */
export function sendCells(opened: OpenedInput, validator: Validator): boolean {
  const rows = opened.sheet === undefined ? undefined : validator.cellRows();
  if (rows === undefined) return false;
  opened.sheet!.cellsTo(rows);
  return true;
}

/** `cells`: nothing reads `opened.chunks` but this (no row outputs): see sendCells. */
export async function validateOpened(
  schema: SchemaModel,
  opened: OpenedInput,
  options: InputValidateOptions = {},
  { cells = false }: { cells?: boolean } = {},
): Promise<ValidationResult> {
  const validator = createValidator(schema, validatorOptionsFor(opened, options));
  if (cells) sendCells(opened, validator);
  for await (const chunk of opened.chunks) {
    validator.push(chunk);
    if (validator.stopped) break;
  }
  return finishResult(opened, validator.end());
}

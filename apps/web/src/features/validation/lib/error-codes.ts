import type { ErrorCode } from '@schemacheck/engine';

/**
 * What each error code means, in the words the results show ("By error type"). The engine's
 * codes stay in the report and the API; people read these.
 */
export const ERROR_CODE_LABELS: Record<ErrorCode, string> = {
  missing_column: 'Missing column',
  unexpected_column: 'Unexpected column',
  column_order: 'Column out of order',
  duplicate_column: 'Duplicate column',
  blank_header: 'Column without a name',
  extra_cells: 'Too many cells',
  missing_cells: 'Too few cells',
  parse_error: 'Unreadable row',
  encoding_error: 'Unreadable characters',
  record_too_large: 'Record too large',
  not_an_object: 'Record is not an object',
  required: 'Missing value',
  type: 'Wrong type or format',
  pattern: 'Does not match the pattern',
  min_length: 'Too short',
  max_length: 'Too long',
  allowed_chars: 'Characters not allowed',
  minimum: 'Below the minimum',
  maximum: 'Above the maximum',
  precision: 'Too many decimal places',
  enum: 'Not an allowed value',
  date_min: 'Date too early',
  date_max: 'Date too late',
  date_future: 'Date in the future',
  date_past: 'Date in the past',
  unique: 'Duplicate value',
  additional_property: 'Unexpected property',
  in_list: 'Not in the list',
  required_when: 'Missing value for a condition',
  empty_when: 'Should be empty for a condition',
  require_one_of: 'None of the alternatives filled',
  compare: 'Comparison failed',
  allowed_values_when: 'Not allowed for a condition',
  sum: 'Sum does not match',
  unique_together: 'Duplicate combination',
};

/** The label of a code; an unknown code (a newer server) is shown as written. */
export function errorCodeLabel(code: string): string {
  return Object.hasOwn(ERROR_CODE_LABELS, code)
    ? ERROR_CODE_LABELS[code as ErrorCode]
    : code.replace(/_/g, ' ');
}

// The schema as the web app's form edits it and the web API stores it (docs/product.md#the-validation-workspace, "as used in the
// web interface"). Numbers may arrive as numbers or as the text of an input; '' means unset.
import type { CrossFieldRule, FieldType, FileType } from '../model.ts';

/** The four schema forms the engine reads. */
export type SchemaFormat = 'web' | 'api' | 'jsonschema' | 'tableschema';
export const SCHEMA_FORMATS: readonly SchemaFormat[] = ['web', 'api', 'jsonschema', 'tableschema'];

export type NumberInput = number | string;

export interface WebFieldValidation {
  minLength?: NumberInput;
  maxLength?: NumberInput;
  pattern?: string;
  allowedChars?: string;
  minValue?: NumberInput;
  maxValue?: NumberInput;
  /** Only reachable by importing JSON Schema; kept so that the form does not lose them. */
  exclusiveMinimum?: NumberInput;
  exclusiveMaximum?: NumberInput;
  precision?: NumberInput;
  truthy?: string[];
  falsy?: string[];
  format?: string;
  minDate?: string;
  maxDate?: string;
  allowFuture?: boolean;
  allowPast?: boolean;
  /** Accepted for compatibility and ignored with a warning: it would be arbitrary code. */
  customRule?: string;
  values?: string[];
  unique?: boolean;
  /** The name of a reference list the value must be in (passed to the validator). */
  inList?: string;
  /** 'warning': the field's failures are warnings; 'error' (the default) is the same as unset. */
  severity?: 'error' | 'warning';
  /** Replaces the field's messages: a template with {field}, {value} and {other}. */
  message?: string;
}

export interface WebField {
  name: string;
  type: FieldType;
  required: boolean;
  validation: WebFieldValidation;
}

export interface WebSchema {
  name: string;
  fileType?: FileType;
  fields: WebField[];
  orderMatters?: boolean;
  additionalColumns?: boolean;
  additionalProperties?: boolean;
  /** Cross-field rules (CrossFieldRule). */
  rules?: CrossFieldRule[];
}

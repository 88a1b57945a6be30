// The validation engine's public surface.
export {
  createValidator,
  validateBytes,
  validateStream,
  type ValidateOptions,
  type Validator,
} from './validator.ts';
export type { CellRows } from './csv-records.ts';
export { compileField, type CompiledField, type CompileOptions, type Failure } from './compile.ts';
export { messages } from './messages.ts';

// The engine's public surface: everything the CLI, the server, workers and the browser use.
export * from './model.ts';
export * from './schema/index.ts';
export * from './validate/index.ts';
export * from './report/csv-report.ts';
export * from './infer/index.ts';
export { compileSafeRegex } from './rules/safe-regex.ts';
export { compileDateFormat, DEFAULT_DATE_FORMAT } from './rules/date-format.ts';
export { DEFAULT_FALSY, DEFAULT_TRUTHY } from './rules/boolean-spellings.ts';
export * from './files/detect.ts';
export * from './files/accepted.ts';
export * from './inputs/index.ts';
export {
  listColumnIndex,
  readListValues,
  type ReadListOptions,
  type ReadListResult,
} from './lists/read-list.ts';
export * from './parallel/index.ts';

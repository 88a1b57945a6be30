// Files beyond plain CSV and JSON: gzip, zip and Excel workbooks, opened the same way everywhere.
export {
  finishResult,
  MAX_NESTED_WORKBOOK_BYTES,
  openStream,
  planInputs,
  sequentialBytes,
  withCells,
  type InputChoice,
  type InputFormat,
  type InputPlatform,
  type OpenedInput,
  type PlannedInput,
} from './open-inputs.ts';
export {
  sendCells,
  validateOpened,
  validatorOptionsFor,
  type InputValidateOptions,
} from './validate-input.ts';
export { type ByteSource, bytesSource, type Decompress } from '../archive/byte-source.ts';
export { sniffContainer, isArchiveName, type Container } from '../archive/detect.ts';
export {
  type ArchiveLimits,
  DEFAULT_MAX_ENTRIES,
  DEFAULT_MAX_RATIO,
  DEFAULT_RATIO_FREE_BYTES,
} from '../archive/limits.ts';
export { InputRefusedError, type RefusalCode } from '../archive/refusal.ts';
export { openZip, type ZipArchive, type ZipEntry } from '../archive/zip.ts';
export { gunzipGuarded } from '../archive/gzip.ts';
export { openWorkbook, pickSheet, type SheetInfo, type Workbook } from '../xlsx/workbook.ts';
export { readSheet, type SheetReading } from '../xlsx/sheet-reader.ts';
export {
  createRowSplitter,
  rowIssueOf,
  type RowIssue,
  type RowSplitter,
  type SplitOptions,
  type SplitOutputs,
} from '../outputs/split-rows.ts';
export { blobSource, webPlatform, type BlobLike } from './web-platform.ts';

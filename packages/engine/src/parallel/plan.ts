// Whether a CSV file can be validated in chunks, and what every chunk must be read with so that
// it is read as the whole file would be: the encoding and the delimiter decided on the file's
// first bytes, and the header line that each later chunk is read after.

import { createCsvReader } from '../csv/reader.ts';
import {
  type DetectedEncoding,
  detectEncoding,
  ENCODING_SAMPLE_BYTES,
} from '../text/detect-encoding.ts';
import { newCsvScanState, scanCsvBytes } from './boundary.ts';

/** How many of the file's first bytes planCsvSplit needs (all of a smaller file). */
export const CSV_PLAN_SAMPLE_BYTES = ENCODING_SAMPLE_BYTES;

export interface CsvSplitPlan {
  encoding: DetectedEncoding;
  delimiter: string;
  /** The file's bytes [0, headerEnd) are its header line with its line break (after a BOM). */
  headerEnd: number;
}

export type CsvSplitDecision = { ok: true; plan: CsvSplitPlan } | { ok: false; reason: string };

const NOTHING = () => {};

/**
 * `sample` is the file's first CSV_PLAN_SAMPLE_BYTES bytes, or the whole file when it is
 * smaller. `delimiter` is the one the caller asks for, if any. A file that chunks could read
 * otherwise than the whole file (UTF-16, a `sep=` line, empty lines before the header) is refused
 * with the reason: it is validated in one piece.
 */
export function planCsvSplit(sample: Uint8Array, delimiter?: string): CsvSplitDecision {
  const complete = sample.length < CSV_PLAN_SAMPLE_BYTES;
  const encoding = detectEncoding(sample, complete);
  if (encoding.encoding !== 'utf-8' && encoding.encoding !== 'windows-1252')
    return { ok: false, reason: `the file is ${encoding.encoding}` };
  const first = sample[encoding.bomLength];
  if (first === undefined) return { ok: false, reason: 'the file is empty' };
  if (first === 0x0a || first === 0x0d)
    return { ok: false, reason: 'the file starts with an empty line' };
  const sep = String.fromCharCode(...sample.subarray(encoding.bomLength, encoding.bomLength + 4));
  if (sep.toLowerCase() === 'sep=')
    return { ok: false, reason: 'the file starts with a sep= line' };

  // The delimiter as the file's own reader decides it: the same reader on the same bytes.
  const reader = createCsvReader(
    { header: NOTHING, record: NOTHING, issue: NOTHING, warning: NOTHING },
    delimiter === undefined ? {} : { delimiter },
  );
  reader.push(sample);
  if (complete) reader.end();
  const used = reader.delimiter;
  if (used === undefined) return { ok: false, reason: 'no delimiter was decided' };

  const cut = scanCsvBytes(sample, newCsvScanState(), encoding.bomLength, true);
  if (cut.at < 0) return { ok: false, reason: 'the header line does not end in the first bytes' };
  // The first line break must be the header's own (not a lone CR before a later LF).
  if (cut.lineBreaks !== 1) return { ok: false, reason: 'the header line does not end with LF' };
  return { ok: true, plan: { encoding, delimiter: used, headerEnd: cut.at } };
}

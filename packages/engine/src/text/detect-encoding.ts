import type { TextEncodingName } from './decoder.ts';
import { sniffUtf8 } from './utf8.ts';

/** How much of the file's start decides between UTF-8 and Windows-1252. */
export const ENCODING_SAMPLE_BYTES = 64 * 1024;

export interface DetectedEncoding {
  encoding: TextEncodingName;
  /** Length of the byte order mark to skip (0 when there is none). */
  bomLength: number;
}

/**
 * A byte order mark decides. Without one, the sample (the file's first ENCODING_SAMPLE_BYTES)
 * decides between UTF-8 and Windows-1252:
 * bytes that are not UTF-8 and no multi-byte UTF-8 character at all are what a Windows-1252 file
 * (Excel's "CSV" on Western Windows) looks like, while a single well-formed multi-byte character
 * is very unlikely in Windows-1252 text (it takes e.g. "Ã©"), so a file with both is UTF-8 with
 * damaged bytes, and those are reported rather than silently reinterpreted. `complete` says the
 * sample is the whole file.
 */
export function detectEncoding(sample: Uint8Array, complete: boolean): DetectedEncoding {
  const [b0, b1, b2] = sample;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return { encoding: 'utf-8', bomLength: 3 };
  if (b0 === 0xff && b1 === 0xfe) return { encoding: 'utf-16le', bomLength: 2 };
  if (b0 === 0xfe && b1 === 0xff) return { encoding: 'utf-16be', bomLength: 2 };
  const sniff = sniffUtf8(sample, complete);
  return { encoding: sniff.invalid && !sniff.multiByte ? 'windows-1252' : 'utf-8', bomLength: 0 };
}

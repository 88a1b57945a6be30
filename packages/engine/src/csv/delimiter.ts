/** The delimiters detection chooses from, in order of preference when the evidence ties. */
export const DELIMITERS = [',', ';', '\t', '|'] as const;

const NAMES: Record<string, string> = {
  ',': 'comma',
  ';': 'semicolon',
  '\t': 'tab',
  '|': 'vertical bar',
};

/** "semicolon (;)" for messages. */
export function describeDelimiter(delimiter: string): string {
  const name = NAMES[delimiter];
  return name === undefined
    ? `"${delimiter}"`
    : delimiter === '\t'
      ? name
      : `${name} (${delimiter})`;
}

/** A delimiter must be one character that cannot start or end a quoted field or a line. */
export function isUsableDelimiter(delimiter: string): boolean {
  return delimiter.length === 1 && delimiter !== '"' && delimiter !== '\r' && delimiter !== '\n';
}

export interface SepLine {
  delimiter: string;
  /** Characters to skip: the line and its line break. */
  length: number;
}

/**
 * Excel's `sep=;` hint on the first line. `complete` says `text` is the whole file, so the hint may
 * end the file without a line break.
 */
export function readSepLine(text: string, complete: boolean): SepLine | null {
  if (text.length < 5 || text.slice(0, 4).toLowerCase() !== 'sep=') return null;
  const delimiter = text[4]!;
  if (!isUsableDelimiter(delimiter)) return null;
  const next = text.charCodeAt(5);
  if (text.length === 5) return complete ? { delimiter, length: 5 } : null;
  if (next === 10) return { delimiter, length: 6 };
  if (next === 13) return { delimiter, length: text.charCodeAt(6) === 10 ? 7 : 6 };
  return null;
}

/** Detection reads at most this many characters and records. */
export const DELIMITER_SAMPLE_CHARS = 16 * 1024;
const SAMPLE_RECORDS = 32;

/**
 * Counts each candidate outside quotes on the first records. The header must contain the
 * delimiter; the candidate that gives the most records the header's count wins, then the one
 * with more columns. `complete` says the text is the whole file (its last line is whole).
 */
export function detectDelimiter(
  text: string,
  complete: boolean,
  sampleChars = DELIMITER_SAMPLE_CHARS,
): string {
  const end = Math.min(text.length, sampleChars);
  const records: number[][] = [];
  let counts = [0, 0, 0, 0];
  let length = 0;
  let quoted = false;
  for (let i = 0; i < end && records.length < SAMPLE_RECORDS; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) quoted = !quoted;
    else if (quoted) continue;
    else if (c === 10 || c === 13) {
      if (length > 0) records.push(counts);
      counts = [0, 0, 0, 0];
      length = 0;
      continue;
    } else if (c === 44) counts[0]!++;
    else if (c === 59) counts[1]!++;
    else if (c === 9) counts[2]!++;
    else if (c === 124) counts[3]!++;
    length++;
  }
  // A line cut by the sample's end would count short.
  if (length > 0 && (records.length === 0 || (complete && end === text.length)))
    records.push(counts);
  const header = records[0];
  if (header === undefined) return ',';
  let best = -1;
  let bestScore = 0;
  for (let k = 0; k < DELIMITERS.length; k++) {
    const columns = header[k]!;
    if (columns === 0) continue;
    let score = 0;
    for (const record of records) if (record[k] === columns) score++;
    if (best < 0 || score > bestScore || (score === bestScore && columns > header[best]!)) {
      best = k;
      bestScore = score;
    }
  }
  return best < 0 ? ',' : DELIMITERS[best]!;
}

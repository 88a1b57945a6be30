// A list file's values as its text arrives, for the upload's count (upload.ts): one value a line,
// or one column of a CSV, read as the engine's readListValues reads the whole text, so that an
// upload over the plan's limit is refused once the limit is passed instead of after the whole
// file (up to 64 MB) is held. The values stored are still the engine's reading of the whole file;
// a value this reader gives is always one of them (apps/server/test/list-upload-stream.test.ts
// compares the two on generated files cut at every place).

import { listColumnIndex } from '@schemacheck/engine';

export interface ValueStream {
  /** The next piece of decoded text. */
  push(text: string): void;
  /** The text has ended. */
  end(): void;
}

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

/**
 * `onValue` gets each value of the file in order as it will be stored (duplicates included, empty
 * ones not); nothing after a CSV header without the column asked for (the engine refuses that
 * file).
 */
export function valueStream(
  options: { csv: boolean; column?: string | undefined },
  onValue: (value: string) => void,
): ValueStream {
  let started = false;
  // The engine drops a byte-order mark at the start of the text it is given (the decoder has
  // already dropped the file's first).
  const start = (text: string) => {
    if (started) return text;
    if (text === '') return text;
    started = true;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  };
  return options.csv ? csvValues(options.column, onValue, start) : lineValues(onValue, start);
}

function lineValues(onValue: (value: string) => void, start: (t: string) => string): ValueStream {
  let pending = '';
  const line = (text: string) => {
    const value = text.charCodeAt(text.length - 1) === CR ? text.slice(0, -1) : text;
    if (value !== '') onValue(value);
  };
  return {
    push(piece) {
      const text = pending + start(piece);
      let from = 0;
      for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', from)) {
        line(text.slice(from, at));
        from = at + 1;
      }
      pending = text.slice(from);
    },
    end() {
      line(pending);
      pending = '';
    },
  };
}

/** As the engine's eachCsvRecord, a character at a time across pieces. */
function csvValues(
  column: string | undefined,
  onValue: (value: string) => void,
  start: (t: string) => string,
): ValueStream {
  let cells: string[] = [];
  let cell = '';
  let first = true;
  let index = -1;
  let stopped = false;
  /** 0: outside quotes; 1: inside a quoted cell; 2: a quote seen inside one. */
  let quoted = 0;
  /** The last character ended a record with CR: an LF right after it belongs to it. */
  let afterCr = false;

  const endRecord = () => {
    cells.push(cell);
    cell = '';
    const record = cells;
    cells = [];
    if (record.length === 1 && record[0] === '') return;
    if (first) {
      first = false;
      index = listColumnIndex(record, column);
      if (index < 0) stopped = true;
      return;
    }
    const value = record[index] ?? '';
    if (value !== '') onValue(value);
  };

  return {
    push(piece) {
      const text = start(piece);
      const n = text.length;
      for (let i = 0; i < n && !stopped; i++) {
        const c = text.charCodeAt(i);
        if (afterCr) {
          afterCr = false;
          if (c === LF && quoted === 0) continue;
        }
        if (quoted === 1) {
          if (c === QUOTE) quoted = 2;
          else cell += text[i];
          continue;
        }
        if (quoted === 2) {
          if (c === QUOTE) {
            cell += '"';
            quoted = 1;
            continue;
          }
          quoted = 0;
        }
        if (c === QUOTE && cell === '') quoted = 1;
        else if (c === COMMA) {
          cells.push(cell);
          cell = '';
        } else if (c === LF || c === CR) {
          endRecord();
          afterCr = c === CR;
        } else cell += text[i];
      }
    },
    end() {
      // An unclosed quote makes the engine refuse the file: no last value.
      if (stopped || quoted === 1) return;
      if (cell !== '' || cells.length > 0) endRecord();
    },
  };
}

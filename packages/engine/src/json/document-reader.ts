// Turns the decoded text of a JSON file, piece by piece, into records for the sink. It knows the
// three shapes (a top-level array, one value, NDJSON), where each record starts and ends, and what
// is allowed between records. Where an array element or NDJSON line starts, the sink's quickRecord
// (if any) may take a clean record whole; otherwise the record's text goes to JSON.parse (long
// number literals marked, see long-numbers.ts), or to the exact parser when JSON.parse fails, to
// say why.
//
// Auto-detection: `[` first means an array. Anything else is read as one value; if that value sits
// alone on one line and another value starts on a later line, the file is NDJSON and the first
// value was its first line. A value spanning several lines followed by more data is an error, not
// NDJSON. A broken first line (a syntax or encoding error, or data after the value) stays NDJSON
// only if the next line starts with the same character (`{` and `{`); otherwise the file is taken
// for one broken value, reported once, instead of an error on every following line.

import {
  JSON_PIECE_BYTES,
  QUICK_RECORD_MAX_DEPTH,
  type JsonResume,
  type JsonSink,
  type JsonReaderOptions,
  type QuickRecord,
} from './reader.ts';
import { parseExact, type ExactParseOptions, type ExactParseResult } from './exact-parser.ts';
import { parseKeepingLongNumbers } from './long-numbers.ts';
import { LineCursor, describeCharAt, positionIn, type TextPosition } from './text-position.ts';
import { SCAN_STOPPED, VALUE_CONTINUES, ValueScanner } from './value-scanner.ts';
import {
  TAB,
  LINE_FEED,
  CARRIAGE_RETURN,
  SPACE,
  COMMA,
  OPEN_BRACKET,
  CLOSE_BRACKET,
} from './char-codes.ts';

export interface JsonReaderLimits {
  maxDepth: number;
  /**
   * A record longer than this (in UTF-16 code units) is a `record_too_large` error on its row;
   * reading goes on with the next record. Bounds the memory one record may take.
   */
  maxRecordChars: number;
  /**
   * A record with more members than this (containers opened plus commas: roughly its array
   * elements and object properties) is a `record_too_large` error on its row and is never built:
   * building it costs memory and time by member (V8 objects with tens of thousands of keys cost
   * ten times more per key), whatever its length in characters.
   */
  maxRecordMembers: number;
  /**
   * A record still open at this size has its text so far checked for syntax errors, and again at
   * every sixteenfold size, so garbage that never closes a bracket is not buffered up to the cap.
   * (The factor trades memory on garbage for time on huge valid records: with 16, a 100 MB
   * record has about 17 MB of it checked twice.)
   */
  firstSyntaxCheckChars: number;
}

type IssueCode = 'parse_error' | 'encoding_error' | 'record_too_large';
interface HeldIssue {
  code: IssueCode;
  message: string;
}

/** What the first value left behind until the file tells whether it is NDJSON. */
interface FirstValue {
  hasValue: boolean;
  value: unknown;
  /** The value itself is broken. */
  valueIssue?: HeldIssue;
  /** The value is fine but something else follows on its line. */
  trailingIssue?: HeldIssue;
}

const START = 0;
const ARRAY_OPEN = 1;
const ARRAY_ELEMENT = 2;
const ARRAY_AFTER_ELEMENT = 3;
const ARRAY_AFTER_COMMA = 4;
const AFTER_DOCUMENT = 5;
const FIRST_VALUE = 6;
const FIRST_TAIL = 7;
const FIRST_SKIP_LINE = 8;
const FIRST_NEXT = 9;
const LINE_START = 10;
const LINE = 11;
const LINE_SKIP = 12;
const STOPPED = 13;

const BYTE_ORDER_MARK = 0xfeff;
const SYNTAX_CHECK_GROWTH = 16;

export class DocumentReader {
  private phase = START;
  private shape: 'array' | 'object' | 'ndjson' | undefined;
  private readonly forcedShape: JsonReaderOptions['shape'];
  private started = false;
  /** Ordinal of the record being read, or of the last one read. */
  private row = 0;
  private readonly cursor = new LineCursor();
  private readonly scanner: ValueScanner;
  private readonly quick: QuickRecord | undefined;

  // The record being read: its start in the current piece (0 when it began in an earlier one),
  // the text it had in earlier pieces, and its start position once known.
  private piece = '';
  private pieceControls = true;
  private recordStart = 0;
  private carry = '';
  private recordPosition: TextPosition | undefined;
  private nextSyntaxCheck = 0;
  /** An array element already reported too large: scanned to its end without keeping its text. */
  private skippingRecord = false;

  private first: FirstValue | undefined;
  private firstSawLineFeed = false;
  private firstOnOneLine = false;
  /** The first value's first character, to compare with the next line's. */
  private firstChar = 0;
  /** The first value is known to be broken; it is scanned on only to learn whether it ends on its line. */
  private firstDoomed: HeldIssue | undefined;

  constructor(
    private readonly sink: JsonSink,
    forcedShape: JsonReaderOptions['shape'],
    private readonly limits: JsonReaderLimits,
    resume?: JsonResume,
  ) {
    this.forcedShape = resume?.shape ?? forcedShape;
    this.shape = this.forcedShape;
    this.scanner = new ValueScanner(limits.maxDepth);
    this.quick = limits.maxDepth >= QUICK_RECORD_MAX_DEPTH ? sink.quickRecord : undefined;
    if (resume !== undefined) {
      // The state the whole file's reader has at a record boundary (see boundary()).
      this.started = true;
      this.row = resume.row;
      this.cursor.line = resume.line;
      this.cursor.column = resume.column;
      this.phase = resume.shape === 'array' ? ARRAY_AFTER_COMMA : LINE_START;
    }
  }

  /**
   * Where reading stands: `clean` when exactly at a record boundary a reader can be resumed at
   * (NDJSON: at a line's start, after a line feed; an array: just after the comma between two
   * elements), `row` the records read so far.
   */
  boundary(): { row: number; clean: boolean } {
    const at = this.shape === 'array' ? ARRAY_AFTER_COMMA : LINE_START;
    return { row: this.row, clean: this.phase === at && this.carry.length === 0 };
  }

  /**
   * Records may be taken on their bytes (JsonSink.byteRecords): where quickRecord may take them,
   * and no record of one piece's bytes can be too large (the core reads a piece at a time).
   */
  get takesBytes(): boolean {
    const limits = this.limits;
    return (
      this.quick !== undefined &&
      limits.maxRecordChars >= JSON_PIECE_BYTES &&
      limits.maxRecordMembers >= JSON_PIECE_BYTES
    );
  }

  /** The shape once known for good: 'array' or 'ndjson' when records are read one after another. */
  get settledShape(): 'array' | 'ndjson' | undefined {
    const phase = this.phase;
    if (this.shape === 'array' && phase >= ARRAY_OPEN && phase <= ARRAY_AFTER_COMMA) return 'array';
    if (this.shape === 'ndjson' && phase >= LINE_START && phase <= LINE_SKIP) return 'ndjson';
    return undefined;
  }

  /** At a boundary() a reader could resume at: the records read so far; otherwise -1. */
  bytesBoundary(): number {
    return this.settledShape !== undefined && this.boundary().clean ? this.row : -1;
  }

  /**
   * In an array, where reading stands as the byte core's jsonArrayScan reads it (depth counts
   * the array's own bracket), so that it can find where the current element ends; undefined
   * elsewhere, and for an element being skipped or that is no object or array.
   */
  arrayScanState(): { inString: boolean; escaped: boolean; depth: number } | undefined {
    if (this.shape !== 'array') return undefined;
    if (this.phase === ARRAY_AFTER_COMMA || this.phase === ARRAY_AFTER_ELEMENT)
      return { inString: false, escaped: false, depth: 1 };
    if (this.phase !== ARRAY_ELEMENT || this.skippingRecord) return undefined;
    const state = this.scanner.containerState();
    return state && { ...state, depth: state.depth + 1 };
  }

  /**
   * After bytesBoundary(), `records` clean records were taken on their bytes, holding `lineFeeds`
   * line feeds and ending `columns` code points after the last (after the boundary if none): the
   * reader stands at the same kind of boundary after them.
   */
  skipRecords(records: number, lineFeeds: number, columns: number): void {
    this.row += records;
    if (lineFeeds > 0) {
      this.cursor.line += lineFeeds;
      this.cursor.column = 1 + columns;
    } else {
      this.cursor.column += columns;
    }
  }

  /**
   * How many more characters the reader can be given before a record still open at their end
   * would be checked for its size (text() below): up to there, where a piece of text ends cannot
   * change what is reported.
   */
  roomBeforeChecks(): number {
    const limits = this.limits;
    const fresh = Math.min(
      limits.firstSyntaxCheckChars - 1,
      limits.maxRecordChars,
      limits.maxRecordMembers,
    );
    if (!this.isBuffering()) return fresh;
    return (
      Math.min(fresh, this.nextSyntaxCheck - 1, limits.maxRecordMembers - this.scanner.members) -
      this.carry.length
    );
  }

  /** `controls`: whether the piece may hold control characters (QuickRecord's last argument). */
  text(piece: string, controls = true): void {
    if (this.phase === STOPPED) return;
    this.pieceControls = controls;
    let pos = 0;
    if (!this.started) {
      this.started = true;
      if (piece.charCodeAt(0) === BYTE_ORDER_MARK) {
        this.sink.warning({
          code: 'bom',
          message: 'The file starts with a UTF-8 byte order mark (BOM); it was ignored.',
        });
        pos = 1;
      }
    }
    this.piece = piece;
    this.recordStart = 0;
    this.cursor.startPiece(piece, pos);
    const length = piece.length;
    while (pos < length && this.phase !== STOPPED) pos = this.step(piece, pos);
    if (this.phase === STOPPED) return;
    if (this.isBuffering()) {
      this.recordPosition ??= this.cursor.moveTo(this.recordStart);
      this.carry += this.recordStart === 0 ? piece : piece.slice(this.recordStart);
      const size = this.carry.length;
      if (
        size >= this.nextSyntaxCheck ||
        size > this.limits.maxRecordChars ||
        this.scanner.members > this.limits.maxRecordMembers
      ) {
        this.checkOpenRecord();
      }
    }
    if (this.phase !== STOPPED) this.cursor.moveTo(length);
  }

  /** Reading has stopped for good (after an error in an array or a single value). */
  get hasStopped(): boolean {
    return this.phase === STOPPED;
  }

  /** Returns true to go on after the next line feed (NDJSON), false when reading stops. */
  invalidUtf8(byteOffset: number, note: string): boolean {
    if (this.phase === STOPPED) return false;
    // Text after this is not the start of the file: a U+FEFF there is no byte order mark.
    this.started = true;
    const at: TextPosition = { line: this.cursor.line, column: this.cursor.column };
    const encoding: HeldIssue = {
      code: 'encoding_error',
      message: `Invalid UTF-8 at line ${at.line}, column ${at.column} (byte offset ${byteOffset})${note}`,
    };
    switch (this.phase) {
      case START:
        if (this.forcedShape === 'ndjson') {
          this.row++;
          this.raise(this.row, encoding, this.elementPath());
          this.phase = LINE_SKIP;
          return true;
        }
        this.raise(1, encoding, '$');
        return this.stop();
      case ARRAY_OPEN:
      case ARRAY_AFTER_ELEMENT:
      case ARRAY_AFTER_COMMA:
        this.raise(this.row + 1, encoding, `$[${this.row}]`);
        return this.stop();
      case ARRAY_ELEMENT:
        this.raise(
          this.row,
          this.syntaxIssueIn(this.carry, 'file') ?? encoding,
          this.elementPath(),
        );
        return this.stop();
      case AFTER_DOCUMENT:
        this.raise(this.row + 1, encoding, '$');
        return this.stop();
      case FIRST_VALUE: {
        const issue = this.firstDoomed ?? this.syntaxIssueIn(this.carry, 'file') ?? encoding;
        if (this.forcedShape === 'object' || this.firstSawLineFeed) {
          this.raise(1, issue, '$');
          return this.stop();
        }
        this.holdFirstFailure(issue);
        this.phase = FIRST_SKIP_LINE;
        return true;
      }
      case FIRST_TAIL:
        if (!this.firstOnOneLine) {
          this.settleAsOneValue();
          this.raise(2, encoding, '$');
          return this.stop();
        }
        if (this.first!.valueIssue === undefined) this.first!.trailingIssue = encoding;
        this.phase = FIRST_SKIP_LINE;
        return true;
      case FIRST_NEXT:
        if (!this.firstOnOneLine || this.firstLineBroken()) {
          const broken = this.firstLineBroken();
          this.settleAsOneValue();
          if (!broken) this.raise(2, encoding, '$');
          return this.stop();
        }
        this.settleAsNdjson();
        this.row++;
        this.raise(this.row, encoding, this.elementPath());
        this.phase = LINE_SKIP;
        return true;
      case LINE_START:
        this.row++;
        this.raise(this.row, encoding, this.elementPath());
        this.phase = LINE_SKIP;
        return true;
      case LINE:
        this.raise(
          this.row,
          this.syntaxIssueIn(this.carry, 'line') ?? encoding,
          this.elementPath(),
        );
        this.endRecord();
        this.phase = LINE_SKIP;
        return true;
      default:
        // FIRST_SKIP_LINE, LINE_SKIP: the line is already reported.
        return true;
    }
  }

  end(): void {
    switch (this.phase) {
      case START:
        this.sink.warning({
          code: 'empty_file',
          message: 'The file is empty: there are no records.',
        });
        return;
      case ARRAY_OPEN:
      case ARRAY_AFTER_ELEMENT:
        this.raiseAtCursor(
          this.row + 1,
          "the file ends before the top-level array is closed with ']'",
          `$[${this.row}]`,
        );
        return;
      case ARRAY_AFTER_COMMA:
        this.raiseAtCursor(
          this.row + 1,
          'the file ends where a value was expected',
          `$[${this.row}]`,
        );
        return;
      case ARRAY_ELEMENT:
        if (this.skippingRecord) {
          this.raiseAtCursor(
            this.row + 1,
            "the file ends before the top-level array is closed with ']'",
            `$[${this.row}]`,
          );
          return;
        }
        this.scanner.finish(this.carry.length);
        if (!this.scanner.endsWithInput) {
          this.raise(this.row, this.parseIssue(this.carry, 'file'), this.elementPath());
        } else if (this.acceptRecord(this.carry, 'file', this.elementPath())) {
          this.raiseAtCursor(
            this.row + 1,
            "the file ends before the top-level array is closed with ']'",
            `$[${this.row}]`,
          );
        }
        return;
      case FIRST_VALUE:
        if (this.firstDoomed) {
          this.raise(1, this.firstDoomed, '$');
          return;
        }
        this.scanner.finish(this.carry.length);
        if (this.scanner.endsWithInput) this.acceptRecord(this.carry, 'file', '$');
        else this.raise(1, this.parseIssue(this.carry, 'file'), '$');
        return;
      case FIRST_TAIL:
      case FIRST_SKIP_LINE:
      case FIRST_NEXT:
        this.settleAsOneValue();
        return;
      case LINE:
        this.finishLine(this.carry);
        return;
      default:
        return;
    }
  }

  private step(piece: string, pos: number): number {
    switch (this.phase) {
      case START:
        return this.atStart(piece, pos);
      case ARRAY_OPEN: {
        pos = skipWhitespace(piece, pos);
        if (pos === piece.length) return pos;
        if (piece.charCodeAt(pos) === CLOSE_BRACKET) {
          this.phase = AFTER_DOCUMENT;
          return pos + 1;
        }
        return this.beginElement(pos);
      }
      case ARRAY_ELEMENT:
        return this.inElement(piece, pos);
      case ARRAY_AFTER_ELEMENT: {
        pos = skipWhitespace(piece, pos);
        if (pos === piece.length) return pos;
        const c = piece.charCodeAt(pos);
        if (c === COMMA) {
          this.phase = ARRAY_AFTER_COMMA;
          return pos + 1;
        }
        if (c === CLOSE_BRACKET) {
          this.phase = AFTER_DOCUMENT;
          return pos + 1;
        }
        this.raiseAt(
          pos,
          this.row + 1,
          `expected ',' or ']' after an array element, found ${describeCharAt(piece, pos)}`,
          `$[${this.row}]`,
        );
        return this.stopped();
      }
      case ARRAY_AFTER_COMMA:
        pos = skipWhitespace(piece, pos);
        if (pos === piece.length) return pos;
        if (piece.charCodeAt(pos) === CLOSE_BRACKET) {
          this.raiseAt(
            pos,
            this.row + 1,
            "expected a value after ',' (trailing commas are not allowed)",
            `$[${this.row}]`,
          );
          return this.stopped();
        }
        return this.beginElement(pos);
      case AFTER_DOCUMENT:
        pos = skipWhitespace(piece, pos);
        if (pos === piece.length) return pos;
        this.raiseAt(
          pos,
          this.row + 1,
          this.shape === 'array'
            ? `unexpected ${describeCharAt(piece, pos)} after the end of the top-level array`
            : `unexpected ${describeCharAt(piece, pos)} after the JSON value`,
          '$',
        );
        return this.stopped();
      case FIRST_VALUE:
        return this.inFirstValue(piece, pos);
      case FIRST_TAIL:
        return this.afterFirstValue(piece, pos);
      case FIRST_SKIP_LINE:
      case LINE_SKIP: {
        const lineFeed = piece.indexOf('\n', pos);
        if (lineFeed === -1) return piece.length;
        this.phase = this.phase === FIRST_SKIP_LINE ? FIRST_NEXT : LINE_START;
        return lineFeed + 1;
      }
      case FIRST_NEXT: {
        pos = skipWhitespace(piece, pos);
        if (pos === piece.length) return pos;
        // A broken first line makes NDJSON only when the next line starts like it did: otherwise
        // it is more likely the rest of one broken value, which would give an error per line.
        const broken = this.firstLineBroken();
        if (this.firstOnOneLine && (!broken || piece.charCodeAt(pos) === this.firstChar)) {
          this.settleAsNdjson();
          this.phase = LINE_START;
          return pos;
        }
        this.settleAsOneValue();
        if (!broken)
          this.raiseAt(
            pos,
            2,
            `unexpected ${describeCharAt(piece, pos)} after the JSON value`,
            '$',
          );
        return this.stopped();
      }
      case LINE_START: {
        pos = skipBlanks(piece, pos);
        if (pos === piece.length) return pos;
        if (piece.charCodeAt(pos) === LINE_FEED) return pos + 1;
        this.row++;
        if (this.quick !== undefined) {
          const lineFeed = piece.indexOf('\n', pos);
          if (
            lineFeed !== -1 &&
            this.quick(piece, pos, lineFeed, this.row, true, this.pieceControls) >= 0
          )
            return lineFeed + 1;
        }
        this.beginRecord(pos);
        this.phase = LINE;
        return pos;
      }
      case LINE: {
        const lineFeed = piece.indexOf('\n', pos);
        if (lineFeed === -1) return piece.length;
        const text = this.recordText(lineFeed);
        this.phase = LINE_START;
        this.finishLine(text);
        return lineFeed + 1;
      }
      default:
        return piece.length;
    }
  }

  private atStart(piece: string, pos: number): number {
    pos = skipWhitespace(piece, pos);
    if (pos === piece.length) return pos;
    const c = piece.charCodeAt(pos);
    if (this.forcedShape === 'ndjson') {
      this.phase = LINE_START;
      return pos;
    }
    if (this.forcedShape === 'array' || (this.forcedShape === undefined && c === OPEN_BRACKET)) {
      if (c !== OPEN_BRACKET) {
        this.raiseAt(
          pos,
          1,
          `expected '[' at the start of a JSON array, found ${describeCharAt(piece, pos)}`,
          '$',
        );
        return this.stopped();
      }
      this.shape = 'array';
      this.phase = ARRAY_OPEN;
      return pos + 1;
    }
    this.row = 1;
    this.beginRecord(pos);
    this.firstSawLineFeed = false;
    this.firstChar = c;
    this.phase = FIRST_VALUE;
    return pos;
  }

  private beginElement(pos: number): number {
    this.row++;
    if (this.quick !== undefined) {
      const end = this.quick(
        this.piece,
        pos,
        this.piece.length,
        this.row,
        false,
        this.pieceControls,
      );
      if (end >= 0) {
        this.phase = ARRAY_AFTER_ELEMENT;
        return end;
      }
    }
    this.beginRecord(pos);
    this.phase = ARRAY_ELEMENT;
    return pos;
  }

  private inElement(piece: string, pos: number): number {
    this.scanner.offsetBase = this.carry.length - this.recordStart;
    const end = this.scanner.scan(piece, pos);
    if (end === VALUE_CONTINUES) return piece.length;
    if (this.skippingRecord) return this.afterSkippedElement(piece, end);
    if (end === SCAN_STOPPED) {
      this.raise(
        this.row,
        this.parseIssue(this.recordText(this.scanner.stoppedAt + 1), 'file'),
        this.elementPath(),
      );
      return this.stopped();
    }
    const follower = this.scanner.endsWithInput ? piece.charAt(end) : '';
    if (!this.acceptRecord(this.recordText(end), 'file', this.elementPath(), follower))
      return this.stopped();
    this.phase = ARRAY_AFTER_ELEMENT;
    return end;
  }

  /** The end of an element reported too large: go on with the next, or stop on broken nesting. */
  private afterSkippedElement(piece: string, end: number): number {
    this.skippingRecord = false;
    if (end === SCAN_STOPPED) {
      this.raiseAt(
        this.scanner.stoppedAt,
        this.row,
        `unexpected ${describeCharAt(piece, this.scanner.stoppedAt)} (a bracket that does not match, or nesting deeper than ${this.limits.maxDepth} levels) in the record too large to check`,
        this.elementPath(),
      );
      return this.stopped();
    }
    this.endRecord();
    this.phase = ARRAY_AFTER_ELEMENT;
    return end;
  }

  private inFirstValue(piece: string, pos: number): number {
    this.scanner.offsetBase = this.carry.length - this.recordStart;
    const end = this.scanner.scan(piece, pos);
    const scannedTo =
      end === VALUE_CONTINUES
        ? piece.length
        : end === SCAN_STOPPED
          ? this.scanner.stoppedAt + 1
          : end;
    if (!this.firstSawLineFeed) {
      const lineFeed = piece.indexOf('\n', pos);
      if (lineFeed !== -1 && lineFeed < scannedTo) this.firstSawLineFeed = true;
    }
    const forced = this.forcedShape === 'object';
    if (end === VALUE_CONTINUES) {
      if (this.firstDoomed && this.firstSawLineFeed) {
        this.raise(1, this.firstDoomed, '$');
        return this.stopped();
      }
      return piece.length;
    }
    if (end === SCAN_STOPPED) {
      const issue = this.firstDoomed ?? this.parseIssue(this.recordText(scannedTo), 'file');
      if (forced || this.firstSawLineFeed) {
        this.raise(1, issue, '$');
        return this.stopped();
      }
      this.holdFirstFailure(issue);
      this.phase = FIRST_SKIP_LINE;
      return scannedTo;
    }
    if (this.firstDoomed) {
      if (this.firstSawLineFeed) {
        this.raise(1, this.firstDoomed, '$');
        return this.stopped();
      }
      this.holdFirstFailure(this.firstDoomed);
      this.phase = FIRST_TAIL;
      return end;
    }
    const text = this.recordText(end);
    const follower = this.scanner.endsWithInput ? piece.charAt(end) : '';
    if (forced) {
      if (!this.acceptRecord(text, 'file', '$', follower)) return this.stopped();
      this.phase = AFTER_DOCUMENT;
      return end;
    }
    const tooLarge = this.tooLargeIssue(text);
    const result = tooLarge ? null : this.parseRecord(text, 'file', follower);
    if (result?.ok) {
      this.first = { hasValue: true, value: result.value };
      this.firstOnOneLine = !this.firstSawLineFeed;
    } else {
      const issue = tooLarge ?? this.describeFailure(result!, text);
      if (this.firstSawLineFeed) {
        this.raise(1, issue, '$');
        return this.stopped();
      }
      this.holdFirstFailure(issue);
    }
    this.endRecord();
    this.phase = FIRST_TAIL;
    return end;
  }

  /** On the first value's line, after it: only blanks, else the line is bad. */
  private afterFirstValue(piece: string, pos: number): number {
    pos = skipBlanks(piece, pos);
    if (pos === piece.length) return pos;
    if (piece.charCodeAt(pos) === LINE_FEED) {
      this.phase = FIRST_NEXT;
      return pos + 1;
    }
    const reason = `unexpected ${describeCharAt(piece, pos)} after the JSON value`;
    if (!this.firstOnOneLine) {
      this.settleAsOneValue();
      this.raiseAt(pos, 2, reason, '$');
      return this.stopped();
    }
    if (this.first!.valueIssue === undefined) {
      this.first!.trailingIssue = {
        code: 'parse_error',
        message: parseMessage(this.cursor.moveTo(pos), reason),
      };
    }
    this.phase = FIRST_SKIP_LINE;
    return pos;
  }

  private firstLineBroken(): boolean {
    const first = this.first!;
    return first.valueIssue !== undefined || first.trailingIssue !== undefined;
  }

  private holdFirstFailure(issue: HeldIssue): void {
    this.first = { hasValue: false, value: undefined, valueIssue: issue };
    this.firstOnOneLine = true;
    this.firstDoomed = undefined;
    this.endRecord();
  }

  /** Nothing else followed the first value: it was the whole file. */
  private settleAsOneValue(): void {
    const first = this.first!;
    this.shape = 'object';
    if (first.hasValue) this.sink.record(first.value, 1, '$');
    if (first.valueIssue) this.raise(1, first.valueIssue, '$');
    if (first.trailingIssue) this.raise(2, first.trailingIssue, '$');
    this.first = undefined;
  }

  /** Another line followed the one-line first value: NDJSON, and the first value was line 1. */
  private settleAsNdjson(): void {
    const first = this.first!;
    this.shape = 'ndjson';
    const issue = first.valueIssue ?? first.trailingIssue;
    if (issue) this.raise(1, issue, '$[0]');
    else this.sink.record(first.value, 1, '$[0]');
    this.first = undefined;
  }

  private finishLine(text: string): void {
    const scanner = this.scanner;
    scanner.reset();
    scanner.offsetBase = 0;
    const end = scanner.scan(text, 0);
    if (end === VALUE_CONTINUES) scanner.finish(text.length);
    if (end === SCAN_STOPPED)
      this.raise(this.row, this.parseIssue(text, 'line'), this.elementPath());
    else this.acceptRecord(text, 'line', this.elementPath());
    this.endRecord();
  }

  /**
   * Parses a finished record and hands it on; false when it was broken (and reported). A record
   * too large is reported and not built, and reading goes on.
   */
  private acceptRecord(
    text: string,
    endName: 'file' | 'line',
    path: string,
    follower = '',
  ): boolean {
    const tooLarge = this.tooLargeIssue(text);
    if (tooLarge) {
      this.raise(this.row, tooLarge, path);
      this.endRecord();
      return true;
    }
    const result = this.parseRecord(text, endName, follower);
    if (result.ok) this.sink.record(result.value, this.row, path);
    else this.raise(this.row, this.describeFailure(result, text), path);
    this.endRecord();
    return result.ok;
  }

  /**
   * `follower` is the character after a bare word or number (which ends where such a character
   * appears): when the word alone is incomplete, that character is the one to complain about.
   */
  private parseRecord(text: string, endName: 'file' | 'line', follower = ''): ExactParseResult {
    if (!this.scanner.hasLongNumbers) {
      try {
        return { ok: true, value: JSON.parse(text) as unknown };
      } catch {
        // The exact parser says where and why.
      }
    } else {
      const kept = parseKeepingLongNumbers(text, this.scanner.longNumbers);
      if (kept) return kept;
    }
    const result = parseExact(text, 0, text.length, this.exactOptions(endName, false));
    if (result.ok || result.kind !== 'end' || follower === '') return result;
    const withFollower = text + follower;
    return parseExact(withFollower, 0, withFollower.length, this.exactOptions(endName, true));
  }

  /** The first problem in a record's text, which must have one. */
  private parseIssue(text: string, endName: 'file' | 'line'): HeldIssue {
    const result = parseExact(text, 0, text.length, this.exactOptions(endName, true));
    if (result.ok) {
      // Only reachable if the scanner and the parser disagree; say so rather than guess.
      return {
        code: 'parse_error',
        message: parseMessage(this.positionInRecord(text, text.length), 'unexpected structure'),
      };
    }
    return this.describeFailure(result, text);
  }

  /** A syntax error in the open record's text so far, if there is one before its end. */
  private syntaxIssueIn(text: string, endName: 'file' | 'line'): HeldIssue | undefined {
    const result = parseExact(text, 0, text.length, this.exactOptions(endName, true));
    return result.ok || result.kind === 'end' ? undefined : this.describeFailure(result, text);
  }

  /** Every parse of a record uses these, so that each names a problem in the same words. */
  private exactOptions(endName: 'file' | 'line', validateOnly: boolean): ExactParseOptions {
    return {
      maxDepth: this.limits.maxDepth,
      endName,
      validateOnly,
      arrayElement: this.shape === 'array',
    };
  }

  private describeFailure(
    result: Extract<ExactParseResult, { ok: false }>,
    text: string,
  ): HeldIssue {
    const at = this.positionInRecord(text, result.offset);
    const message =
      result.kind === 'depth'
        ? `Nesting deeper than ${this.limits.maxDepth} levels at line ${at.line}, column ${at.column}`
        : parseMessage(at, result.reason);
    return { code: 'parse_error', message };
  }

  private positionInRecord(text: string, offset: number): TextPosition {
    this.recordPosition ??= this.cursor.moveTo(this.recordStart);
    return positionIn(text, 0, offset, this.recordPosition);
  }

  /** `record_too_large` when a finished record's text or members pass the limits. */
  private tooLargeIssue(text: string): HeldIssue | undefined {
    if (
      text.length <= this.limits.maxRecordChars &&
      this.scanner.members <= this.limits.maxRecordMembers
    )
      return undefined;
    return this.tooLarge(text.length > this.limits.maxRecordChars);
  }

  private tooLarge(byLength: boolean): HeldIssue {
    this.recordPosition ??= this.cursor.moveTo(this.recordStart);
    const at = this.recordPosition;
    const limit = byLength
      ? `is longer than ${this.limits.maxRecordChars.toLocaleString('en-US')} characters`
      : `has more than ${this.limits.maxRecordMembers.toLocaleString('en-US')} values and properties`;
    return {
      code: 'record_too_large',
      message: `Record too large: the record that starts at line ${at.line}, column ${at.column} ${limit}, the most one record may have; it was not checked`,
    };
  }

  /** A record still open at a piece's end: too large, or already broken? */
  private checkOpenRecord(): void {
    const text = this.carry;
    let issue = this.syntaxIssueIn(text, this.phase === LINE ? 'line' : 'file');
    let tooLarge = false;
    if (
      issue === undefined &&
      (text.length > this.limits.maxRecordChars ||
        this.scanner.members > this.limits.maxRecordMembers)
    ) {
      tooLarge = true;
      issue = this.tooLarge(text.length > this.limits.maxRecordChars);
    }
    if (issue === undefined) {
      this.nextSyntaxCheck = text.length * SYNTAX_CHECK_GROWTH;
      return;
    }
    if (this.phase === ARRAY_ELEMENT && tooLarge) {
      // Reported on its row; its end is found without keeping its text, then the next is read.
      this.raise(this.row, issue, this.elementPath());
      this.skippingRecord = true;
      this.carry = '';
      this.nextSyntaxCheck = Infinity;
      return;
    }
    if (this.phase === LINE) {
      this.raise(this.row, issue, this.elementPath());
      this.endRecord();
      this.phase = LINE_SKIP;
    } else if (
      this.phase === FIRST_VALUE &&
      !tooLarge &&
      this.forcedShape !== 'object' &&
      !this.firstSawLineFeed
    ) {
      // Broken on its first line: keep scanning (without the text) to learn whether it was NDJSON.
      this.firstDoomed = issue;
      this.carry = '';
      this.nextSyntaxCheck = Infinity;
    } else {
      this.raise(
        this.phase === ARRAY_ELEMENT ? this.row : 1,
        issue,
        this.phase === ARRAY_ELEMENT ? this.elementPath() : '$',
      );
      this.stop();
    }
  }

  private beginRecord(pos: number): void {
    this.skippingRecord = false;
    this.recordStart = pos;
    this.carry = '';
    this.recordPosition = undefined;
    this.nextSyntaxCheck = this.limits.firstSyntaxCheckChars;
    this.scanner.reset();
  }

  private endRecord(): void {
    this.carry = '';
    this.recordPosition = undefined;
  }

  private recordText(end: number): string {
    const own = this.piece.slice(this.recordStart, end);
    return this.carry.length === 0 ? own : this.carry + own;
  }

  private isBuffering(): boolean {
    const phase = this.phase;
    return (
      (phase === ARRAY_ELEMENT && !this.skippingRecord) ||
      phase === LINE ||
      (phase === FIRST_VALUE && this.firstDoomed === undefined)
    );
  }

  private elementPath(): string {
    return `$[${this.row - 1}]`;
  }

  private raise(row: number, issue: HeldIssue, path: string): void {
    this.sink.issue(row, issue.code, issue.message, path);
  }

  private raiseAt(pos: number, row: number, reason: string, path: string): void {
    this.sink.issue(row, 'parse_error', parseMessage(this.cursor.moveTo(pos), reason), path);
  }

  private raiseAtCursor(row: number, reason: string, path: string): void {
    this.sink.issue(
      row,
      'parse_error',
      parseMessage({ line: this.cursor.line, column: this.cursor.column }, reason),
      path,
    );
  }

  private stop(): false {
    this.phase = STOPPED;
    this.endRecord();
    return false;
  }

  private stopped(): number {
    this.stop();
    return this.piece.length;
  }
}

function parseMessage(at: TextPosition, reason: string): string {
  return `Invalid JSON at line ${at.line}, column ${at.column}: ${reason}`;
}

/** Skips JSON whitespace, line feeds included. */
function skipWhitespace(text: string, pos: number): number {
  const length = text.length;
  while (pos < length) {
    const c = text.charCodeAt(pos);
    if (c !== SPACE && c !== LINE_FEED && c !== CARRIAGE_RETURN && c !== TAB) return pos;
    pos++;
  }
  return pos;
}

/** Skips JSON whitespace within a line. */
function skipBlanks(text: string, pos: number): number {
  const length = text.length;
  while (pos < length) {
    const c = text.charCodeAt(pos);
    if (c !== SPACE && c !== CARRIAGE_RETURN && c !== TAB) return pos;
    pos++;
  }
  return pos;
}

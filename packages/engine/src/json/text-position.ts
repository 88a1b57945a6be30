// Lines and columns for messages. Both are 1-based; columns count code points, so an emoji is one
// column, as in an editor. Only error paths ask for a position, but the reader keeps a cursor
// moving through every piece of text, so each character is looked at once, not once per error.

const LINE_FEED = '\n';
const LOW_SURROGATES = /[\uDC00-\uDFFF]/g;

export interface TextPosition {
  line: number;
  column: number;
}

/** Code points in text[from, to); a surrogate pair counts once. */
export function codePointCount(text: string, from: number, to: number): number {
  if (to - from < 64) {
    let count = to - from;
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0xdc00 && c <= 0xdfff) count--;
    }
    return count;
  }
  // On one-byte strings V8 answers this without scanning; on others it is a fast native scan.
  const lows = text.slice(from, to).match(LOW_SURROGATES);
  return to - from - (lows === null ? 0 : lows.length);
}

/** Position of text[offset], given the position of text[start]. */
export function positionIn(
  text: string,
  start: number,
  offset: number,
  at: TextPosition,
): TextPosition {
  let line = at.line;
  let column = at.column;
  let lineStart = start;
  let lineFeed = text.indexOf(LINE_FEED, start);
  while (lineFeed !== -1 && lineFeed < offset) {
    line++;
    column = 1;
    lineStart = lineFeed + 1;
    lineFeed = text.indexOf(LINE_FEED, lineStart);
  }
  return { line, column: column + codePointCount(text, lineStart, offset) };
}

/** Follows the reader through one piece of text after another, only ever forwards. */
export class LineCursor {
  line = 1;
  column = 1;
  private text = '';
  private offset = 0;
  /** Offset of the next line feed at or after `offset`: -1 none, -2 not looked up yet. */
  private nextLineFeed = -2;

  /** The cursor stands at text[from]; its line and column carry over from the previous piece. */
  startPiece(text: string, from: number): void {
    this.text = text;
    this.offset = from;
    this.nextLineFeed = -2;
  }

  /** Moves to text[target] (target ≥ the current offset) and returns its position. */
  moveTo(target: number): TextPosition {
    if (target < this.offset) return { line: this.line, column: this.column };
    if (this.nextLineFeed === -2) this.nextLineFeed = this.text.indexOf(LINE_FEED, this.offset);
    while (this.nextLineFeed !== -1 && this.nextLineFeed < target) {
      this.line++;
      this.column = 1;
      this.offset = this.nextLineFeed + 1;
      this.nextLineFeed = this.text.indexOf(LINE_FEED, this.offset);
    }
    this.column += codePointCount(this.text, this.offset, target);
    this.offset = target;
    return { line: this.line, column: this.column };
  }
}

/** How a message names the character at text[offset]: 'x', a space, U+00A0, the end. */
export function describeCharAt(text: string, offset: number): string {
  if (offset >= text.length) return 'the end';
  const code = text.codePointAt(offset)!;
  if (code > 0x20 && code < 0x7f) return code === 0x27 ? `"'"` : `'${String.fromCharCode(code)}'`;
  if (code === 0x20) return 'a space';
  if (code === 0x09) return 'a tab';
  if (code === 0x0a) return 'a line break';
  if (code === 0x0d) return 'a carriage return';
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

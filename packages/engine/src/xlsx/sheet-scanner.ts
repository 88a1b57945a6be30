// The sheet's XML as the inflater's bytes in, rows of cells out (decision 221). Only complete
// `<row>` elements are read: the rows up to the last `</row>` in the buffer, with the tail kept for
// the next piece, so where the pieces are cut never changes what comes out (tested by cutting at
// every offset). The usual cells, a number or a shared-string index in `<v>…</v></c>`, are handed
// on as bytes and as an index, without a string; any other cell is decoded on its own and read as
// text. No DOM, no per-character callbacks.

import { refuse } from '../archive/refusal.ts';
import { decodeXmlText, richText } from './xml.ts';

export interface SheetHandler {
  /** A row starts: its 1-based number (from `r`, else one after the previous row). */
  rowStart(row: number): void;
  /** A number cell (no `t`, or `t="n"`) of `<v>` bytes[from, to) as stored, without a formula. */
  number(col: number, style: number, bytes: Uint8Array, from: number, to: number): void;
  /** A shared-string cell (`t="s"`) whose `<v>` is a plain index, without a formula. */
  shared(col: number, style: number, index: number): void;
  /**
   * Any other cell: 0-based column, type (`t`: '' for a number, s, str, inlineStr, b, e, d), style
   * index, the `<v>` text (null when absent; decoded for text types) or the text of an inline
   * string, and whether it has a formula.
   */
  cell(col: number, type: string, style: number, value: string | null, formula: boolean): void;
  rowEnd(): void;
  /** A merged range (`A1:B3`), found after the rows. */
  merge(range: string): void;
}

/** A single row's XML larger than this is refused rather than buffered. */
export const MAX_ROW_BYTES = 32 << 20;

export interface SheetScanner {
  push(bytes: Uint8Array): void;
  end(): void;
}

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

const isNameEnd = (c: number) =>
  c === 32 || c === 62 || c === 47 || c === 9 || c === 10 || c === 13;

export function createSheetScanner(handler: SheetHandler, what: string): SheetScanner {
  const decoder = new TextDecoder();
  // The unread bytes: the tail of the last piece and the piece just pushed, in one reused array.
  let buf = new Uint8Array(1 << 17);
  let len = 0;
  /** Bytes before this were in the buffer at the last scan (and hold no `</row>`). */
  let fresh = 0;
  let prefix: string | undefined;
  let rowOpen = ascii('<row');
  let rowClose = ascii('</row>');
  let cOpen = ascii('<c');
  let cClose = ascii('</c>');
  let vOpenWhole = ascii('<v>');
  /** `</v></c>`: the usual cell's end, compared at once. */
  let vcClose = ascii('</v></c>');
  let dataEnd = ascii('</sheetData>');
  let dataEmpty = ascii('<sheetData/>');
  // After the rows: the rest of the sheet as text, where only merged ranges are looked for.
  let afterRows = false;
  let rest = '';
  let lastRow = 0;

  /** No namespace prefix, as nearly every sheet: the usual cell's tags are compared as constants. */
  let plain = false;

  const setPrefix = (p: string) => {
    prefix = p;
    plain = p === '';
    rowOpen = ascii(`<${p}row`);
    rowClose = ascii(`</${p}row>`);
    cOpen = ascii(`<${p}c`);
    cClose = ascii(`</${p}c>`);
    vOpenWhole = ascii(`<${p}v>`);
    vcClose = ascii(`</${p}v></${p}c>`);
    dataEnd = ascii(`</${p}sheetData>`);
    dataEmpty = ascii(`<${p}sheetData/>`);
  };

  const startsWith = (pattern: Uint8Array, at: number, to: number) => {
    if (at + pattern.length > to) return false;
    for (let k = 0; k < pattern.length; k++) if (buf[at + k] !== pattern[k]) return false;
    return true;
  };
  // `<v>` and `</v></c>` (after its `<`) at buf[at] when there is no prefix, byte by byte: a loop
  // over a pattern costs a load and a bound check more per byte, on every cell.
  const isV = (at: number, to: number) =>
    at + 3 <= to && buf[at] === 60 && buf[at + 1] === 118 && buf[at + 2] === 62;
  const isVcClose = (at: number, to: number) =>
    at + 8 <= to &&
    buf[at + 1] === 47 &&
    buf[at + 2] === 118 &&
    buf[at + 3] === 62 &&
    buf[at + 4] === 60 &&
    buf[at + 5] === 47 &&
    buf[at + 6] === 99 &&
    buf[at + 7] === 62;
  /** Where `byte` is in buf[from, to), or -1 (a loop: Uint8Array's indexOf is a slow call here). */
  const indexOfByte = (byte: number, from: number, to: number) => {
    for (let i = from; i < to; i++) if (buf[i] === byte) return i;
    return -1;
  };
  const indexOf = (pattern: Uint8Array, from: number, to: number) => {
    const first = pattern[0]!;
    for (let i = from; i <= to - pattern.length; i++) {
      if (buf[i] === first && startsWith(pattern, i, to)) return i;
    }
    return -1;
  };
  const lastIndexOf = (pattern: Uint8Array, from: number, to: number) => {
    const first = pattern[0]!;
    for (let i = to - pattern.length; i >= from; i--) {
      if (buf[i] === first && startsWith(pattern, i, to)) return i;
    }
    return -1;
  };
  /** buf[from, to) as text: short ASCII runs by a loop, anything else by the decoder. */
  const text = (from: number, to: number) => {
    if (to - from <= 24) {
      let out = '';
      for (let i = from; i < to; i++) {
        const c = buf[i]!;
        if (c >= 0x80) return decoder.decode(buf.subarray(from, to));
        out += String.fromCharCode(c);
      }
      return out;
    }
    return decoder.decode(buf.subarray(from, to));
  };

  // Where the values of r, t and s lie in the start tag (-1: absent), as positions.
  let rFrom = -1;
  let rTo = -1;
  let tFrom = -1;
  let tTo = -1;
  let sFrom = -1;
  let sTo = -1;
  /**
   * Reads the attributes of the start tag whose name ends at `from`, up to its first `>` (the
   * tag's end: attribute values in a sheet hold no `>`), in the same pass that finds it; where
   * that `>` is (-1 when not before `to`).
   */
  const readTag = (from: number, to: number) => {
    rFrom = tFrom = sFrom = -1;
    let i = from;
    for (;;) {
      if (i >= to) return -1;
      let c = buf[i]!;
      if (c === 62) return i;
      if (c === 32 || c === 9 || c === 10 || c === 13 || c === 47) {
        i++;
        continue;
      }
      const nameStart = i;
      while (i < to && (c = buf[i]!) !== 61 && c > 32 && c !== 62) i++;
      const nameEnd = i;
      while (i < to && (c = buf[i]!) !== 61 && c !== 62) i++;
      if (i >= to || c === 62) return i < to ? i : -1;
      i++; // '='
      while (i < to && (c = buf[i]!) !== 34 && c !== 39 && c !== 62) i++;
      if (i >= to || c === 62) return i < to ? i : -1;
      const valueStart = i + 1;
      const quote = c;
      for (i = valueStart; i < to && (c = buf[i]!) !== quote && c !== 62;) i++;
      if (i >= to || c === 62) return i < to ? i : -1;
      if (nameEnd - nameStart === 1) {
        const n = buf[nameStart];
        if (n === 114) {
          rFrom = valueStart;
          rTo = i;
        } else if (n === 116) {
          tFrom = valueStart;
          tTo = i;
        } else if (n === 115) {
          sFrom = valueStart;
          sTo = i;
        }
      }
      i++;
    }
  };

  // A cell's start tag as spreadsheets write it, ` r="D14"` then any of ` s="3"` and ` t="s"`
  // (a one-letter type), read in one pass with its column, type and style: the column, type and
  // style it found (cellType '' for a number).
  let cellCol = 0;
  let cellType = '';
  let cellStyle = 0;
  /**
   * Reads the start tag whose name ends at `from` if it has that shape; where its `>` is, or -1
   * for any other tag (which readTag then reads).
   */
  const readCellTag = (from: number, to: number) => {
    let i = from;
    if (i + 5 >= to || buf[i] !== 32 || buf[i + 1] !== 114 || buf[i + 2] !== 61) return -1;
    if (buf[i + 3] !== 34) return -1;
    i += 4;
    let c = buf[i]!;
    let col = 0;
    for (; c >= 65 && c <= 90 && i < to; c = buf[++i]!) col = col * 26 + (c - 64);
    if (col === 0) return -1;
    while (c >= 48 && c <= 57 && i < to) c = buf[++i]!;
    if (c !== 34 || i >= to) return -1;
    i++;
    let type = '';
    let style = 0;
    for (;;) {
      if (i + 1 >= to) return -1;
      c = buf[i]!;
      if (c === 62) break;
      if (c === 47) {
        if (buf[i + 1] !== 62) return -1;
        i++;
        break;
      }
      if (c !== 32 || i + 5 >= to || buf[i + 2] !== 61 || buf[i + 3] !== 34) return -1;
      const name = buf[i + 1];
      i += 4;
      if (name === 116) {
        if (buf[i + 1] !== 34) return -1;
        const t = buf[i];
        if (t === 115) type = 's';
        else if (t === 110) type = '';
        else if (t === 98) type = 'b';
        else if (t === 101) type = 'e';
        else if (t === 100) type = 'd';
        else return -1;
        i += 2;
      } else if (name === 115) {
        const start = i;
        let n = 0;
        for (; (c = buf[i]!) >= 48 && c <= 57 && i < to; i++) n = n * 10 + (c - 48);
        if (c !== 34 || i === start || i - start > 9 || i >= to) return -1;
        style = n;
        i++;
      } else return -1;
    }
    cellCol = col - 1;
    cellType = type;
    cellStyle = style;
    return i;
  };

  /** The 0-based column of the reference in buf[from, to) (`D14`: 3), or -1. */
  const columnAt = (from: number, to: number) => {
    let col = 0;
    let i = from;
    for (; i < to; i++) {
      const c = buf[i]!;
      if (c >= 65 && c <= 90) col = col * 26 + (c - 64);
      else if (c >= 97 && c <= 122) col = col * 26 + (c - 96);
      else break;
    }
    return i === from ? -1 : col - 1;
  };

  /** The cell type in buf[from, to): the usual ones as constants, 'n' as ''. */
  const typeAt = (from: number, to: number) => {
    const c = buf[from];
    if (to - from === 1) {
      if (c === 115) return 's';
      if (c === 110) return '';
      if (c === 98) return 'b';
      if (c === 101) return 'e';
      if (c === 100) return 'd';
    } else if (to - from === 3 && c === 115 && buf[from + 1] === 116 && buf[from + 2] === 114)
      return 'str';
    else if (to - from === 9 && c === 105 && text(from, to) === 'inlineStr') return 'inlineStr';
    return text(from, to);
  };

  /** The plain digits in buf[from, to) as a number (at most 9 of them), else -1. */
  const digitsAt = (from: number, to: number) => {
    if (to <= from || to - from > 9) return -1;
    let n = 0;
    for (let i = from; i < to; i++) {
      const d = buf[i]! - 48;
      if (d < 0 || d > 9) return -1;
      n = n * 10 + d;
    }
    return n;
  };

  /** As `Number(s) | 0` on buf[from, to), without the string when it is plain digits. */
  const styleAt = (from: number, to: number) => {
    const n = digitsAt(from, to);
    return n >= 0 ? n : Number(text(from, to)) | 0;
  };

  /** A cell that is not the usual one, read from its own decoded text `inner` (after `>`). */
  const otherCell = (col: number, type: string, style: number, inner: string) => {
    const p = prefix as string;
    const fOpen = `<${p}f`;
    const vOpen = `<${p}v`;
    const isOpen = `<${p}is`;
    let value: string | null = null;
    let formula = false;
    for (let i = inner.indexOf('<'); i >= 0; i = inner.indexOf('<', i + 1)) {
      if (inner.startsWith(fOpen, i) && isNameEnd(inner.charCodeAt(i + fOpen.length))) {
        formula = true; // its text holds no `<`, so the next tag is its end
      } else if (
        type === 'inlineStr' &&
        inner.startsWith(isOpen, i) &&
        isNameEnd(inner.charCodeAt(i + isOpen.length))
      ) {
        value = richText(inner.slice(i), p);
        break;
      } else if (inner.startsWith(vOpen, i) && isNameEnd(inner.charCodeAt(i + vOpen.length))) {
        const vgt = inner.indexOf('>', i);
        if (inner.charCodeAt(vgt - 1) === 47) value = '';
        else {
          const vEnd = inner.indexOf(`</${p}v>`, vgt);
          value = inner.slice(vgt + 1, vEnd < 0 ? inner.length : vEnd);
          if (type !== '' && type !== 's') value = decodeXmlText(value);
        }
        break;
      }
    }
    if (type === 'inlineStr' && value === null) value = '';
    handler.cell(col, type, style, value, formula);
  };

  /** The cells of the row whose start tag ends at `from`; where its `</row>` ends. */
  const readCells = (from: number, to: number) => {
    let col = -1;
    let at = from;
    for (;;) {
      const lt = buf[at] === 60 ? at : indexOfByte(60, at, to);
      if (lt < 0) return to;
      // An end tag (`</row>`, or one the loop passes over) or the start of a cell: told apart by
      // the byte after `<` before any pattern is compared.
      if (buf[lt + 1] === 47) {
        if (startsWith(rowClose, lt, to)) return lt + rowClose.length;
        at = lt + 1;
        continue;
      }
      if (
        lt + cOpen.length >= to ||
        (plain ? buf[lt + 1] !== 99 : !startsWith(cOpen, lt, to)) ||
        !isNameEnd(buf[lt + cOpen.length]!)
      ) {
        at = lt + 1;
        continue;
      }
      let gt = readCellTag(lt + cOpen.length, to);
      let type = cellType;
      let style = cellStyle;
      if (gt >= 0) col = cellCol;
      else {
        gt = readTag(lt + cOpen.length, to);
        if (gt < 0) return to;
        const fromRef = rFrom < 0 ? -1 : columnAt(rFrom, rTo);
        col = fromRef >= 0 ? fromRef : col + 1;
        type = tFrom < 0 ? '' : typeAt(tFrom, tTo);
        style = sFrom < 0 ? 0 : styleAt(sFrom, sTo);
      }
      if (buf[gt - 1] === 47) {
        handler.cell(col, type, style, null, false);
        at = gt + 1;
        continue;
      }
      // The usual cell, `<v>text</v></c>`, read without searching for its end first.
      if (plain ? isV(gt + 1, to) : startsWith(vOpenWhole, gt + 1, to)) {
        const textStart = gt + 1 + vOpenWhole.length;
        const textEnd = indexOfByte(60, textStart, to);
        if (textEnd >= 0 && (plain ? isVcClose(textEnd, to) : startsWith(vcClose, textEnd, to))) {
          at = textEnd + vcClose.length;
          if (type === '') {
            handler.number(col, style, buf, textStart, textEnd);
            continue;
          }
          if (type === 's') {
            const index = digitsAt(textStart, textEnd);
            if (index >= 0) handler.shared(col, style, index);
            else handler.cell(col, type, style, text(textStart, textEnd), false);
            continue;
          }
          // A boolean's `0` or `1` as a constant: no string to make and no escapes to look for.
          const one = textEnd - textStart === 1 ? buf[textStart]! : 0;
          const value =
            one === 48 ? '0' : one === 49 ? '1' : decodeXmlText(text(textStart, textEnd));
          handler.cell(col, type, style, value, false);
          continue;
        }
      }
      const end = indexOf(cClose, gt, to);
      otherCell(col, type, style, text(gt + 1, end < 0 ? to : end));
      at = end < 0 ? to : end + cClose.length;
    }
  };

  /**
   * The rows in buf[from, to), which ends after a `</row>` or where the rows end; with `closed`,
   * only self-closed rows (`<row r="3"/>`): the others have no end in the buffer.
   */
  const readRows = (from: number, to: number, closed = false) => {
    let at = from;
    for (;;) {
      const start = indexOfByte(60, at, to);
      if (start < 0) return;
      if (
        start + rowOpen.length >= to ||
        !startsWith(rowOpen, start, to) ||
        !isNameEnd(buf[start + rowOpen.length]!)
      ) {
        at = start + 1;
        continue;
      }
      const gt = readTag(start + rowOpen.length, to);
      if (gt < 0 || (closed && buf[gt - 1] !== 47)) return;
      const n = rFrom < 0 || rFrom === rTo ? lastRow + 1 : digitsAt(rFrom, rTo);
      const r = n >= 0 ? n : Number(text(rFrom, rTo));
      // Rows out of order cannot come from a spreadsheet; each is read after the one before.
      lastRow = r > lastRow ? r : lastRow + 1;
      handler.rowStart(lastRow);
      at = buf[gt - 1] === 47 ? gt + 1 : readCells(gt + 1, to);
      handler.rowEnd();
    }
  };

  const scanMerges = () => {
    const open = `<${prefix ?? ''}mergeCell`;
    let at = 0;
    // Where the unread text starts: an unfinished tag waits whole; else only a tail that may
    // hold the start of one.
    let keep = -1;
    for (;;) {
      const start = rest.indexOf(open, at);
      if (start < 0) break;
      const gt = rest.indexOf('>', start);
      if (gt < 0) {
        keep = start;
        break;
      }
      if (isNameEnd(rest.charCodeAt(start + open.length))) {
        const m = /\sref\s*=\s*["']([^"']*)["']/.exec(rest.slice(start, gt));
        if (m) handler.merge(m[1]!);
      }
      at = gt + 1;
    }
    rest = rest.slice(keep >= 0 ? keep : Math.max(at, rest.length - open.length));
  };

  /** Reads what the buffer holds; the bytes not yet read move to its front. */
  const scan = (last: boolean) => {
    if (prefix === undefined) {
      // Tag names are ASCII, so a character cut at the end of the buffer does not matter. The
      // root is in the first piece but for a long prolog: everything waits until it is found.
      const head = decoder.decode(buf.subarray(0, len));
      const m = /<([A-Za-z_][\w.-]*:)?worksheet[\s>]/.exec(head);
      if (!m) return keep(last ? len : 0);
      setPrefix(m[1] ?? '');
      fresh = 0;
    }
    // Complete rows end at the last `</row>`: the tail before `fresh` was searched already.
    const since = Math.max(0, fresh - rowClose.length);
    const close = lastIndexOf(rowClose, since, len);
    const complete = close < 0 ? 0 : close + rowClose.length;
    // The end of the rows lies after the last of them.
    const from = Math.max(complete, Math.max(0, fresh - dataEnd.length));
    let stop = indexOf(dataEnd, from, len);
    if (stop < 0) stop = indexOf(dataEmpty, from, len);
    if (stop >= 0) {
      readRows(0, stop);
      afterRows = true;
      rest = decoder.decode(buf.subarray(stop, len), { stream: true });
      len = 0;
      return scanMerges();
    }
    readRows(0, complete);
    if (last) readRows(complete, len, true);
    keep(complete);
  };

  /** Moves buf[from, len) to the front of the buffer. */
  const keep = (from: number) => {
    buf.copyWithin(0, from, len);
    len -= from;
    fresh = len;
    if (len > MAX_ROW_BYTES) {
      refuse(
        'workbook_too_large',
        `${what} has a row whose XML is larger than ${MAX_ROW_BYTES >> 20} MiB`,
      );
    }
  };

  return {
    push(bytes) {
      if (afterRows) {
        rest += decoder.decode(bytes, { stream: true });
        return scanMerges();
      }
      if (len + bytes.length > buf.length) {
        const grown = new Uint8Array(Math.max(buf.length * 2, len + bytes.length));
        grown.set(buf.subarray(0, len));
        buf = grown;
      }
      buf.set(bytes, len);
      len += bytes.length;
      scan(false);
    },
    end() {
      if (afterRows) {
        rest += decoder.decode();
        return scanMerges();
      }
      scan(true);
    },
  };
}

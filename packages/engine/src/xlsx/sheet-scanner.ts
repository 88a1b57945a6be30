// The sheet's XML as a stream of text pieces in, rows of raw cells out. Only complete `<row>`
// elements are read; the unread tail waits for the next piece, so where the pieces are cut never
// changes what comes out (tested by cutting at every offset). Scanning is indexOf over the
// buffer, with attributes read by a char loop: no DOM, no per-character callbacks.

import { refuse } from '../archive/refusal.ts';
import { decodeXmlText, richText, rootPrefix } from './xml.ts';

export interface SheetHandler {
  /** A row starts: its 1-based number (from `r`, else one after the previous row). */
  rowStart(row: number): void;
  /**
   * One cell: 0-based column, type (`t`: '' for a number, s, str, inlineStr, b, e, d), style
   * index, the `<v>` text (null when absent; decoded for text types), whether it has a formula,
   * and the text of an inline string.
   */
  cell(col: number, type: string, style: number, value: string | null, formula: boolean): void;
  rowEnd(): void;
  /** A merged range (`A1:B3`), found after the rows. */
  merge(range: string): void;
}

/** A single row's XML larger than this is refused rather than buffered. */
export const MAX_ROW_CHARS = 32 << 20;

export interface SheetScanner {
  push(text: string): void;
  end(): void;
}

export function createSheetScanner(handler: SheetHandler, what: string): SheetScanner {
  let buf = '';
  let prefix: string | undefined;
  let rowOpen = '';
  let rowClose = '';
  let cOpen = '';
  let cClose = '';
  let vOpen = '';
  let vOpenWhole = '';
  let vClose = '';
  let fOpen = '';
  let isOpen = '';
  let dataEnd = '';
  let afterRows = false;
  let lastRow = 0;

  const setPrefix = (p: string) => {
    prefix = p;
    rowOpen = `<${p}row`;
    rowClose = `</${p}row>`;
    cOpen = `<${p}c`;
    cClose = `</${p}c>`;
    vOpen = `<${p}v`;
    vOpenWhole = `<${p}v>`;
    vClose = `</${p}v>`;
    fOpen = `<${p}f`;
    isOpen = `<${p}is`;
    dataEnd = `</${p}sheetData>`;
  };

  // Where the values of r, t and s lie in the start tag buf[from, to) (-1: absent), as positions:
  // a cell's start tag is the most frequent thing in a sheet, and slices cost a string each.
  let rFrom = -1;
  let rTo = -1;
  let tFrom = -1;
  let tTo = -1;
  let sFrom = -1;
  let sTo = -1;
  const readAttributes = (from: number, to: number) => {
    rFrom = tFrom = sFrom = -1;
    let i = from;
    while (i < to) {
      let c = buf.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13 || c === 47) {
        i++;
        continue;
      }
      const nameStart = i;
      while (i < to && buf.charCodeAt(i) !== 61 && buf.charCodeAt(i) > 32) i++;
      const nameEnd = i;
      while (i < to && buf.charCodeAt(i) !== 61) i++;
      i++; // '='
      while (i < to && (c = buf.charCodeAt(i)) !== 34 && c !== 39) i++;
      if (i >= to) return;
      const valueStart = i + 1;
      const valueEnd = buf.indexOf(c === 34 ? '"' : "'", valueStart);
      if (valueEnd < 0 || valueEnd > to) return;
      if (nameEnd - nameStart === 1) {
        const n = buf.charCodeAt(nameStart);
        if (n === 114) {
          rFrom = valueStart;
          rTo = valueEnd;
        } else if (n === 116) {
          tFrom = valueStart;
          tTo = valueEnd;
        } else if (n === 115) {
          sFrom = valueStart;
          sTo = valueEnd;
        }
      }
      i = valueEnd + 1;
    }
  };

  /** The 0-based column of the reference in buf[from, to) (`D14`: 3), or -1. */
  const columnAt = (from: number, to: number) => {
    let col = 0;
    let i = from;
    for (; i < to; i++) {
      const c = buf.charCodeAt(i);
      if (c >= 65 && c <= 90) col = col * 26 + (c - 64);
      else if (c >= 97 && c <= 122) col = col * 26 + (c - 96);
      else break;
    }
    return i === from ? -1 : col - 1;
  };

  /** The cell type in buf[from, to): the usual ones as constants, 'n' as ''. */
  const typeAt = (from: number, to: number) => {
    const c = buf.charCodeAt(from);
    if (to - from === 1) {
      if (c === 115) return 's';
      if (c === 110) return '';
      if (c === 98) return 'b';
      if (c === 101) return 'e';
      if (c === 100) return 'd';
    } else if (to - from === 3 && buf.startsWith('str', from)) return 'str';
    else if (to - from === 9 && buf.startsWith('inlineStr', from)) return 'inlineStr';
    return buf.slice(from, to);
  };

  /** As `Number(s) | 0` on buf[from, to), without the string when it is plain digits. */
  const styleAt = (from: number, to: number) => {
    if (to - from > 9) return Number(buf.slice(from, to)) | 0;
    let n = 0;
    for (let i = from; i < to; i++) {
      const d = buf.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return Number(buf.slice(from, to)) | 0;
      n = n * 10 + d;
    }
    return n;
  };

  const isNameEnd = (c: number) =>
    c === 32 || c === 62 || c === 47 || c === 9 || c === 10 || c === 13;

  const readCells = (from: number, to: number) => {
    let col = -1;
    let at = from;
    for (;;) {
      const start = buf.indexOf(cOpen, at);
      if (start < 0 || start >= to) return;
      if (!isNameEnd(buf.charCodeAt(start + cOpen.length))) {
        at = start + cOpen.length;
        continue;
      }
      const gt = buf.indexOf('>', start);
      readAttributes(start + cOpen.length, gt);
      const fromRef = rFrom < 0 ? -1 : columnAt(rFrom, rTo);
      col = fromRef >= 0 ? fromRef : col + 1;
      const type = tFrom < 0 ? '' : typeAt(tFrom, tTo);
      const style = sFrom < 0 ? 0 : styleAt(sFrom, sTo);
      if (buf.charCodeAt(gt - 1) === 47) {
        handler.cell(col, type, style, null, false);
        at = gt + 1;
        continue;
      }
      // The usual cell, `<v>text</v></c>`, read without searching for its end first.
      if (buf.startsWith(vOpenWhole, gt + 1)) {
        const textStart = gt + 1 + vOpenWhole.length;
        const lt = buf.indexOf('<', textStart);
        if (
          lt >= 0 &&
          lt < to &&
          buf.startsWith(vClose, lt) &&
          buf.startsWith(cClose, lt + vClose.length)
        ) {
          const text = buf.slice(textStart, lt);
          handler.cell(
            col,
            type,
            style,
            type !== '' && type !== 's' ? decodeXmlText(text) : text,
            false,
          );
          at = lt + vClose.length + cClose.length;
          continue;
        }
      }
      const end = buf.indexOf(cClose, gt);
      const cellEnd = end < 0 || end > to ? to : end;
      let value: string | null = null;
      let formula = false;
      // The cell's child elements, found tag by tag: searching the buffer for `<f` or `<v` would
      // run to the buffer's end for every cell without one.
      for (let i = buf.indexOf('<', gt + 1); i >= 0 && i < cellEnd; i = buf.indexOf('<', i + 1)) {
        if (buf.startsWith(fOpen, i) && isNameEnd(buf.charCodeAt(i + fOpen.length))) {
          formula = true; // its text holds no `<`, so the next tag is its end
        } else if (
          type === 'inlineStr' &&
          buf.startsWith(isOpen, i) &&
          isNameEnd(buf.charCodeAt(i + isOpen.length))
        ) {
          value = richText(buf.slice(i, cellEnd), prefix as string);
          break;
        } else if (buf.startsWith(vOpen, i) && isNameEnd(buf.charCodeAt(i + vOpen.length))) {
          const vgt = buf.indexOf('>', i);
          if (buf.charCodeAt(vgt - 1) === 47) value = '';
          else {
            const vEnd = buf.indexOf(vClose, vgt);
            value = buf.slice(vgt + 1, vEnd < 0 || vEnd > cellEnd ? cellEnd : vEnd);
            if (type !== '' && type !== 's') value = decodeXmlText(value);
          }
          break;
        }
      }
      if (type === 'inlineStr' && value === null) value = '';
      handler.cell(col, type, style, value, formula);
      at = end < 0 ? to : end + cClose.length;
    }
  };

  const scanMerges = () => {
    const open = `<${prefix ?? ''}mergeCell`;
    let at = 0;
    // Where the unread text starts: an unfinished tag waits whole; else only a tail that may
    // hold the start of one.
    let keep = -1;
    for (;;) {
      const start = buf.indexOf(open, at);
      if (start < 0) break;
      const gt = buf.indexOf('>', start);
      if (gt < 0) {
        keep = start;
        break;
      }
      if (isNameEnd(buf.charCodeAt(start + open.length))) {
        const m = /\sref\s*=\s*["']([^"']*)["']/.exec(buf.slice(start, gt));
        if (m) handler.merge(m[1]!);
      }
      at = gt + 1;
    }
    buf = buf.slice(keep >= 0 ? keep : Math.max(at, buf.length - open.length));
  };

  const scan = () => {
    if (prefix === undefined) {
      const m = /<([A-Za-z_][\w.-]*:)?worksheet[\s>]/.exec(buf);
      if (!m) return;
      setPrefix(m[1] ?? '');
      void rootPrefix;
    }
    if (afterRows) return scanMerges();
    let at = 0;
    // Where the rows end, if this buffer holds it: found once, not once per row.
    const stop = buf.indexOf(dataEnd);
    for (;;) {
      const start = buf.indexOf(rowOpen, at);
      if (stop >= 0 && (start < 0 || stop < start)) {
        afterRows = true;
        buf = buf.slice(stop);
        return scanMerges();
      }
      if (start < 0) {
        // Keep a tail that may hold the start of a tag cut by the piece boundary.
        const selfClosed = buf.indexOf(`<${prefix}sheetData/>`, at);
        if (selfClosed >= 0) {
          afterRows = true;
          buf = buf.slice(selfClosed);
          return scanMerges();
        }
        buf = buf.slice(Math.max(at, buf.length - dataEnd.length - 2));
        return;
      }
      const next = buf.charCodeAt(start + rowOpen.length);
      if (next !== next || !isNameEnd(next)) {
        if (next !== next) break; // cut right after `<row`: wait for more
        at = start + rowOpen.length;
        continue;
      }
      const gt = buf.indexOf('>', start);
      if (gt < 0) break;
      let end: number;
      if (buf.charCodeAt(gt - 1) === 47) end = gt + 1;
      else {
        const close = buf.indexOf(rowClose, gt);
        if (close < 0) break;
        end = close + rowClose.length;
      }
      readAttributes(start + rowOpen.length, gt);
      const r = rFrom < 0 || rFrom === rTo ? lastRow + 1 : Number(buf.slice(rFrom, rTo));
      // Rows out of order cannot come from a spreadsheet; each is read after the one before.
      lastRow = r > lastRow ? r : lastRow + 1;
      handler.rowStart(lastRow);
      if (end > gt + 1) readCells(gt + 1, end);
      handler.rowEnd();
      at = end;
    }
    buf = buf.slice(at);
    if (buf.length > MAX_ROW_CHARS) {
      refuse(
        'workbook_too_large',
        `${what} has a row whose XML is larger than ${MAX_ROW_CHARS >> 20} MiB`,
      );
    }
  };

  return {
    push(text) {
      buf += text;
      scan();
    },
    end() {
      scan();
    },
  };
}

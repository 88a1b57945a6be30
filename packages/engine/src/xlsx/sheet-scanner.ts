// The sheet's XML as a stream of text pieces in, rows of raw cells out. Only complete `<row>`
// elements are read; the unread tail waits for the next piece, so where the pieces are cut never
// changes what comes out (tested by cutting at every offset). Scanning is indexOf over the
// buffer, with attributes read by a char loop: no DOM, no per-character callbacks.

import { refuse } from '../archive/refusal.ts';
import { columnOf } from './cell-ref.ts';
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
    vClose = `</${p}v>`;
    fOpen = `<${p}f`;
    isOpen = `<${p}is`;
    dataEnd = `</${p}sheetData>`;
  };

  // Attributes of the start tag buf[from, to): only r, t and s matter.
  let attrR = '';
  let attrT = '';
  let attrS = '';
  const readAttributes = (from: number, to: number) => {
    attrR = '';
    attrT = '';
    attrS = '';
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
      const quote = buf[i];
      if (quote === undefined || i >= to) return;
      const valueEnd = buf.indexOf(quote, i + 1);
      if (valueEnd < 0 || valueEnd > to) return;
      if (nameEnd - nameStart === 1) {
        const n = buf.charCodeAt(nameStart);
        if (n === 114) attrR = buf.slice(i + 1, valueEnd);
        else if (n === 116) attrT = buf.slice(i + 1, valueEnd);
        else if (n === 115) attrS = buf.slice(i + 1, valueEnd);
      }
      i = valueEnd + 1;
    }
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
      const fromRef = attrR === '' ? -1 : columnOf(attrR);
      col = fromRef >= 0 ? fromRef : col + 1;
      const type = attrT === 'n' ? '' : attrT;
      const style = attrS === '' ? 0 : Number(attrS) | 0;
      if (buf.charCodeAt(gt - 1) === 47) {
        handler.cell(col, type, style, null, false);
        at = gt + 1;
        continue;
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
      const r = attrR === '' ? lastRow + 1 : Number(attrR);
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

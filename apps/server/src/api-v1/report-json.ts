import { Readable } from 'node:stream';
import type { ResultRow } from '../validation/results.ts';

// GET /v1/reports/{id}?format=json: the summary and every error as one JSON document, streamed
// from the stored CSV report record by record (docs/decisions/086), so a report of millions of
// errors never sits in memory. The CSV report neutralises formula-like values with a leading '
// inside quotes; that is undone here, so JSON carries the values as they were in the file.

const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\n', '\r', '\u0000']);

/** RFC 4180 records from text chunks; each cell with whether it was quoted. */
export async function* csvRecords(
  chunks: AsyncIterable<Buffer | string>,
): AsyncGenerator<{ text: string; quoted: boolean }[]> {
  let cells: { text: string; quoted: boolean }[] = [];
  let cell = '';
  let quoted = false;
  let inQuotes = false;
  let afterQuote = false;
  const decoder = new TextDecoder();
  for await (const chunk of chunks) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (inQuotes) {
        if (c === '"') {
          inQuotes = false;
          afterQuote = true;
        } else cell += c;
        continue;
      }
      if (c === '"') {
        if (afterQuote) cell += '"';
        inQuotes = true;
        quoted = true;
        afterQuote = false;
        continue;
      }
      afterQuote = false;
      if (c === ',') {
        cells.push({ text: cell, quoted });
        cell = '';
        quoted = false;
      } else if (c === '\n') {
        cells.push({ text: cell, quoted });
        yield cells;
        cells = [];
        cell = '';
        quoted = false;
      } else if (c !== '\r') cell += c;
    }
  }
  if (cell !== '' || cells.length > 0) {
    cells.push({ text: cell, quoted });
    yield cells;
  }
}

function original(cell: { text: string; quoted: boolean }): string {
  const t = cell.text;
  return cell.quoted && t.startsWith("'") && FORMULA_START.has(t[1] ?? '') ? t.slice(1) : t;
}

export function reportJsonStream(row: ResultRow, report: Readable | null): Readable {
  async function* generate(): AsyncGenerator<string> {
    const summary = row.summary as { valid?: boolean };
    const head = {
      report_id: row.id,
      file_name: row.fileName,
      file_type: row.fileType,
      created_at: row.createdAt.toISOString(),
      valid: summary.valid ?? row.errorCount === 0,
      error_count: row.errorCount,
      stats: {
        rows: row.totalRows,
        valid_rows: row.validRows,
        invalid_rows: row.invalidRows,
        bytes: row.fileSize,
      },
    };
    yield `${JSON.stringify(head).slice(0, -1)},"errors":[`;
    let first = true;
    if (report) {
      let header: string[] | null = null;
      for await (const cells of csvRecords(report)) {
        if (!header) {
          header = cells.map((c) => c.text);
          continue;
        }
        const get = (name: string) => {
          const i = header!.indexOf(name);
          return i >= 0 && cells[i] ? original(cells[i]) : '';
        };
        const value = cells[header.indexOf('value')];
        const item = {
          row: Number(get('row')),
          column: get('field'),
          code: get('code'),
          message: get('message'),
          // The writer writes a missing value and an empty one alike: both read back as null.
          value: value && (value.text !== '' || value.quoted) ? original(value) : null,
          ...(header.includes('path') ? { path: get('path') } : {}),
          // Workbooks' reports carry the cell (docs/decisions/163); an issue of the file has none.
          ...(header.includes('cell') && get('cell') !== '' ? { cell: get('cell') } : {}),
          // Reports written before these columns existed read as errors without suggestions.
          severity: get('severity') === 'warning' ? 'warning' : 'error',
          ...(get('suggestion') !== '' ? { suggestion: get('suggestion') } : {}),
        };
        yield `${first ? '' : ','}${JSON.stringify(item)}`;
        first = false;
      }
    }
    yield ']}';
  }
  return Readable.from(generate());
}

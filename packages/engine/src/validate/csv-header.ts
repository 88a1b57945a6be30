// What the header row says about the file's columns, decided once: which column feeds each field,
// and the file-level issues (all on row 1). Columns are matched by exact name: case-sensitive,
// untrimmed (the reader has already removed a BOM).

import type { ErrorCode } from '../model.ts';
import { messages } from './messages.ts';

export interface HeaderIssue {
  field: string;
  code: ErrorCode;
  message: string;
  value: string | null;
}

export interface HeaderPlan {
  /** Column index of each field, in the order of `fieldNames`; -1 when the column is missing. */
  columns: number[];
  /** In file order: issues of columns by position, then missing columns in schema order. */
  issues: HeaderIssue[];
}

export interface HeaderFlags {
  orderMatters: boolean;
  additionalColumns: boolean;
}

/**
 * - A blank header cell is `blank_header`; its column's cells are not checked (nothing names them).
 * - A repeated name is `duplicate_column` on each later copy; only the first copy is checked.
 * - A schema field without a column is `missing_column` whether or not it is required: a renamed
 *   or misspelt header would otherwise switch that column's checks off without a word.
 */
export function planHeader(
  header: readonly string[],
  fieldNames: readonly string[],
  flags: HeaderFlags,
): HeaderPlan {
  const positioned: { at: number; issue: HeaderIssue }[] = [];
  const firstIndex = new Map<string, number>();
  header.forEach((name, i) => {
    if (name === '') {
      positioned.push({
        at: i,
        issue: {
          field: '',
          code: 'blank_header',
          message: messages.blankHeader(i + 1),
          value: null,
        },
      });
    } else if (firstIndex.has(name)) {
      positioned.push({
        at: i,
        issue: {
          field: name,
          code: 'duplicate_column',
          message: messages.duplicateColumn(name),
          value: name,
        },
      });
    } else {
      firstIndex.set(name, i);
    }
  });

  const known = new Set(fieldNames);
  if (!flags.additionalColumns) {
    for (const [name, i] of firstIndex) {
      if (!known.has(name)) {
        positioned.push({
          at: i,
          issue: {
            field: name,
            code: 'unexpected_column',
            message: messages.unexpectedColumn(name),
            value: name,
          },
        });
      }
    }
  }

  const columns = fieldNames.map((name) => firstIndex.get(name) ?? -1);
  if (flags.orderMatters) {
    for (const { at, issue } of orderIssues(columns, fieldNames)) positioned.push({ at, issue });
  }
  positioned.sort((a, b) => a.at - b.at);

  const issues = positioned.map((p) => p.issue);
  fieldNames.forEach((name, k) => {
    if (columns[k] === -1)
      issues.push({
        field: name,
        code: 'missing_column',
        message: messages.missingColumn(name),
        value: null,
      });
  });
  return { columns, issues };
}

/**
 * The present schema columns should appear in schema order. The largest set of columns already
 * in order (a longest increasing subsequence) stays put; each other column is reported once,
 * placed relative to its nearest in-order neighbour in the schema.
 */
function orderIssues(
  columns: readonly number[],
  fieldNames: readonly string[],
): { at: number; issue: HeaderIssue }[] {
  const present: number[] = []; // schema indexes, in file order
  columns
    .map((col, k) => ({ col, k }))
    .filter((p) => p.col >= 0)
    .sort((a, b) => a.col - b.col)
    .forEach((p) => present.push(p.k));
  const inOrder = longestIncreasing(present);
  const issues: { at: number; issue: HeaderIssue }[] = [];
  const anchors = present.filter((_, i) => inOrder[i]).sort((a, b) => a - b);
  present.forEach((k, i) => {
    if (inOrder[i]) return;
    const name = fieldNames[k] as string;
    const at = firstAbove(anchors, k);
    const before = at > 0 ? anchors[at - 1] : undefined;
    const after = anchors[at];
    const message =
      before !== undefined
        ? messages.columnAfter(name, fieldNames[before] as string)
        : messages.columnBefore(name, fieldNames[after as number] as string);
    issues.push({
      at: columns[k] as number,
      issue: { field: name, code: 'column_order', message, value: name },
    });
  });
  return issues;
}

/** Marks the members of one longest strictly increasing subsequence (O(n log n)). */
function longestIncreasing(seq: readonly number[]): boolean[] {
  const tails: number[] = []; // index into seq of the smallest tail of each length
  const previous: number[] = new Array<number>(seq.length).fill(-1);
  seq.forEach((value, i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((seq[tails[mid] as number] as number) < value) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1] as number;
    tails[lo] = i;
  });
  const members = new Array<boolean>(seq.length).fill(false);
  for (
    let i = tails.length > 0 ? (tails[tails.length - 1] as number) : -1;
    i >= 0;
    i = previous[i] as number
  )
    members[i] = true;
  return members;
}

/** Index of the first element of the ascending `sorted` greater than `k`. */
function firstAbove(sorted: readonly number[], k: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) <= k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

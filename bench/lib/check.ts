// Compares the (row, field) pairs a tool reported with the planted errors.
import { readFileSync } from 'node:fs';
import type { PlantedError } from '../generate.ts';
import type { Pair } from '../peers/common.ts';
import type { FileType } from '@schemacheck/engine';

export interface PairComparison {
  found: number;
  matched: number;
  missed: string[];
  unexpected: string[];
  /** Error codes the tool used, with counts. */
  codes: Record<string, number>;
}

const EXAMPLES = 5;

export function comparePairs(
  pairsFile: string,
  planted: PlantedError[],
  input: FileType,
): PairComparison {
  const { pairs } = JSON.parse(readFileSync(pairsFile, 'utf8')) as { count: number; pairs: Pair[] };
  const offset = input === 'csv' ? 2 : 1;
  const expected = new Map(planted.map((p) => [`${p.record + offset}\t${p.column}`, p]));
  const seen = new Set<string>();
  const codes: Record<string, number> = {};
  const unexpected: string[] = [];
  let unexpectedCount = 0;
  for (const [row, field, code, value] of pairs) {
    codes[code] = (codes[code] ?? 0) + 1;
    const key = `${row}\t${field}`;
    if (expected.has(key)) {
      seen.add(key);
    } else {
      unexpectedCount++;
      if (unexpected.length < EXAMPLES) {
        unexpected.push(`row ${row} field '${field}' ${code} value ${JSON.stringify(value)}`);
      }
    }
  }
  const missed: string[] = [];
  let missedCount = 0;
  for (const [key, p] of expected) {
    if (seen.has(key)) continue;
    missedCount++;
    if (missed.length < EXAMPLES) {
      const [row] = key.split('\t');
      const value = input === 'csv' ? JSON.stringify(p.csv) : (p.json ?? '(property left out)');
      missed.push(`row ${row} field '${p.column}' planted ${value}`);
    }
  }
  if (unexpectedCount > unexpected.length) unexpected.push(`... ${unexpectedCount} in all`);
  if (missedCount > missed.length) missed.push(`... ${missedCount} in all`);
  return { found: pairs.length, matched: seen.size, missed, unexpected, codes };
}

// uniqueTogether's tables of seen keys, moved into the byte core's memory (decision 256): the
// core then looks up and records a clean record's key where it hashes it, and JavaScript reads
// and fills the same table through the core's exports (a record the core stops on, a parallel
// chunk's seeds and entries). The core's program names each table by its number.

import type { SeenEntries, SeenStore, SeenValues } from '../validate/rules/unique.ts';
import type { ByteCoreExports } from './load.ts';

export interface KeyTableExports extends ByteCoreExports {
  keyTable(): number;
  keyCount(table: number): number;
  keyEntriesAt(table: number): number;
  keyClose(table: number): void;
  keyExpect(table: number, values: number): void;
  keyFirstRow(table: number, a: number, b: number, row: number): number;
}

/** Words of an entry in the core: the two hashes, the row, its slot. */
const ENTRY_WORDS = 4;

/**
 * Moves each table into the core and returns the numbers the program names them by; null when
 * one cannot move (the core then proves no key rule, and every table stays where it was).
 */
export function moveKeyTables(
  core: KeyTableExports,
  tables: readonly SeenValues[],
): number[] | null {
  const stores = tables.map(() => {
    const table = core.keyTable();
    return table < 0 ? null : new CoreKeyStore(core, table);
  });
  if (stores.some((s) => s === null)) return null;
  for (let k = 0; k < tables.length; k++) {
    if ((tables[k] as SeenValues).moveTo(stores[k] as CoreKeyStore)) continue;
    // Back where they were: the tables moved so far take their values again.
    for (let j = 0; j < k; j++) (tables[j] as SeenValues).moveBack();
    return null;
  }
  return stores.map((s) => (s as CoreKeyStore).table);
}

class CoreKeyStore implements SeenStore {
  constructor(
    private readonly core: KeyTableExports,
    readonly table: number,
  ) {}

  get count(): number {
    return this.core.keyCount(this.table);
  }

  expect(values: number): void {
    this.core.keyExpect(this.table, Math.min(values, 0x3fffffff));
  }

  firstRowOfHash(a: number, b: number, row: number): number {
    return this.core.keyFirstRow(this.table, a, b, row);
  }

  entries(): SeenEntries {
    const count = this.core.keyCount(this.table);
    const words = new Int32Array(
      this.core.memory.buffer,
      this.core.keyEntriesAt(this.table),
      count * ENTRY_WORDS,
    );
    const h1 = new Int32Array(count);
    const h2 = new Int32Array(count);
    const rows = new Uint32Array(count);
    for (let i = 0, w = 0; i < count; i++, w += ENTRY_WORDS) {
      h1[i] = words[w] as number;
      h2[i] = words[w + 1] as number;
      rows[i] = words[w + 2] as number;
    }
    return { h1, h2, rows };
  }

  close(): void {
    this.core.keyClose(this.table);
  }
}

// JSONTestSuite (nst/JSONTestSuite): every y_ file is accepted, every n_ file is rejected with a
// position, and no i_ file throws or hangs. Each file is also read one byte at a time, which must
// change nothing.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readJsonEvents, type JsonEvent } from './read-events.ts';

// Vendored with its MIT licence: packages/engine/test/fixtures/JSONTestSuite.
const SUITE = fileURLToPath(
  new URL('../../test/fixtures/JSONTestSuite/test_parsing/', import.meta.url),
);
const files = readdirSync(SUITE)
  .filter((name) => name.endsWith('.json'))
  .sort();

/**
 * Empty content is a warning, not an error (the product's rule for empty files), so these n_
 * files give 'empty_file' instead of a parse_error.
 */
const EMPTY_CONTENT = new Set([
  'n_single_space.json',
  'n_structure_no_data.json',
  'n_structure_UTF8_BOM_no_data.json',
]);

const POSITION = /at line \d+, column \d+/;

function read(name: string): { events: JsonEvent[]; ms: number; bytes: Uint8Array } {
  const bytes = new Uint8Array(readFileSync(SUITE + name));
  const started = performance.now();
  const events = readJsonEvents(bytes);
  return { events, ms: performance.now() - started, bytes };
}

const issues = (events: JsonEvent[]) => events.filter((e) => e.kind === 'issue');

describe('JSONTestSuite', () => {
  it('has the corpus', () => {
    expect(files.length).toBe(318);
  });

  describe.each(files.filter((f) => f.startsWith('y_')))('accepts %s', (name) => {
    it('without a parse or encoding error', () => {
      const { events } = read(name);
      expect(issues(events)).toEqual([]);
    });
  });

  describe.each(files.filter((f) => f.startsWith('n_')))('rejects %s', (name) => {
    it('with a positioned error', () => {
      const { events } = read(name);
      if (EMPTY_CONTENT.has(name)) {
        expect(events.filter((e) => e.kind === 'warning').map((e) => e.code)).toContain(
          'empty_file',
        );
        return;
      }
      const found = issues(events);
      expect(found.length).toBeGreaterThan(0);
      for (const issue of found) {
        expect(['parse_error', 'encoding_error']).toContain(issue.kind === 'issue' && issue.code);
        const message = issue.kind === 'issue' ? issue.message : '';
        expect(message.match(POSITION) ?? message.match(/byte offset \d+/)).not.toBeNull();
      }
    });
  });

  it.each(files.filter((f) => f.startsWith('i_')))(
    'reads %s without throwing or hanging',
    (name) => {
      const { ms } = read(name);
      expect(ms).toBeLessThan(1000);
    },
  );

  it('gives the same result for every file read one byte at a time', () => {
    for (const name of files) {
      const { events, bytes } = read(name);
      const cuts = Array.from({ length: bytes.length }, (_, i) => i + 1);
      expect(readJsonEvents(bytes, {}, cuts), name).toEqual(events);
    }
  });
});

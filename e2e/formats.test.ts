import { readFileSync } from 'node:fs';
import { bytesSource, parseSchema, planInputs, validateOpened } from '@schemacheck/engine';
import { nodePlatform } from '@schemacheck/node-platform';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openSite, type TestSite } from './support/site.ts';
import {
  buildSchema,
  summaryFigures,
  tableRows,
  webSchemaOf,
  type FieldInput,
} from './support/workspace.ts';

// An Excel workbook dropped on the public validator (docs/decisions/164): read on the device by
// the engine in the Web Worker, with the errors the engine gives for the same workbook in Node,
// and no request carrying the file.

const WORKBOOK = readFileSync(
  new URL('../packages/engine/test/fixtures/xlsx/cells-openpyxl.xlsx', import.meta.url),
);
const FIELDS: FieldInput[] = [
  { name: 'id', type: 'string', required: true },
  { name: 'name', type: 'string', required: true },
  { name: 'amount', type: 'number' },
];

async function engineResult() {
  const parsed = parseSchema(webSchemaOf('People', FIELDS), 'web');
  if (!parsed.ok) throw new Error('test schema refused');
  const [planned] = await planInputs('people.xlsx', bytesSource(WORKBOOK), nodePlatform, {
    schema: parsed.value,
  });
  return validateOpened(parsed.value, await planned!.open(), { maxErrors: 1000 });
}

let site: TestSite;
let page: Page;
const requests: Request[] = [];

describe('an Excel workbook on the in-browser validator', () => {
  beforeAll(async () => {
    site = await openSite();
    page = await site.newPage();
    page.on('request', (request) => requests.push(request));
  });

  afterAll(async () => {
    await site?.close();
  });

  it('is read on the device, with the engine’s errors', async () => {
    await page.goto('/csv-validator');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.textContent('main')).toContain('.xlsx');
    await buildSchema(page, 'People', FIELDS);
    const before = requests.length;
    await page.getByTestId('dropzone-input').setInputFiles({
      name: 'people.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: WORKBOOK,
    });
    await page.getByRole('button', { name: 'Validate on this device' }).click();
    await page.getByTestId('summary-stats').waitFor();

    const expected = await engineResult();
    expect(expected.errorCount).toBeGreaterThan(0);
    expect(await summaryFigures(page)).toEqual([
      expected.totalRows,
      expected.validRows,
      expected.invalidRows,
      expected.errorCount,
    ]);
    const table = await tableRows(page);
    expect(table.map((r) => [Number(r[0]), r[1], r[2]])).toEqual(
      expected.errors.slice(0, 50).map((e) => [e.row, e.field, e.message]),
    );
    // Nothing after the drop went anywhere but this site's own pages and assets.
    for (const request of requests.slice(before)) {
      expect(request.postDataBuffer()?.includes(WORKBOOK.subarray(0, 64)) ?? false).toBe(false);
      expect(request.url()).not.toContain('/api/validate');
    }
  });
});

import { readFileSync } from 'node:fs';
import {
  bytesSource,
  parseSchema,
  planInputs,
  validateOpened,
  type InputChoice,
} from '@schemacheck/engine';
import { nodePlatform } from '@schemacheck/node-platform';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { writeZip } from '../packages/engine/test/zip-writer.ts';
import { openSite, signUp, type TestSite } from './support/site.ts';
import {
  buildSchema,
  readDownloaded,
  summaryFigures,
  webSchemaOf,
  type FieldInput,
} from './support/workspace.ts';

// The sheet and entry pickers (docs/decisions/206) and the valid/invalid rows downloads
// (docs/decisions/205): a workbook with two sheets and a zip with two CSV files ask which one
// before validating, on the public validator (read on the device) and on the dashboard
// (uploaded with `sheet`/`entry`); the chosen part gives the engine's figures for that part; a
// Pro user downloads the rows that passed and the rows that failed of the stored result.

const WORKBOOK = readFileSync(
  new URL('../packages/engine/test/fixtures/xlsx/cells-openpyxl.xlsx', import.meta.url),
);
const FIELDS: FieldInput[] = [
  { name: 'id', type: 'string', required: true },
  { name: 'name', type: 'string', required: true },
  { name: 'amount', type: 'number' },
];
const A_CSV = 'id,name,amount\n1,Ann,3\n2,,x\n';
const B_CSV = 'id,name,amount\n1,Bob,4\n2,Cy,5\n3,,6\n4,Di,y\n';
const ZIP = writeZip([
  { name: 'a.csv', data: Buffer.from(A_CSV), deflate: true },
  { name: 'b.csv', data: Buffer.from(B_CSV), deflate: true },
]);

/** The engine's figures in Node for one part of a file. */
async function engineFigures(name: string, bytes: Buffer, choice: InputChoice) {
  const parsed = parseSchema(webSchemaOf('People', FIELDS), 'web');
  if (!parsed.ok) throw new Error('test schema refused');
  const planned = await planInputs(name, bytesSource(bytes), nodePlatform, {
    schema: parsed.value,
    ...choice,
  });
  expect(planned).toHaveLength(1);
  const r = await validateOpened(parsed.value, await planned[0]!.open(), { maxErrors: 1000 });
  return [r.totalRows, r.validRows, r.invalidRows, r.errorCount];
}

async function drop(page: Page, name: string, buffer: Buffer) {
  await page.getByTestId('dropzone-input').setInputFiles({
    name,
    mimeType: 'application/octet-stream',
    buffer,
  });
}

async function options(page: Page, testId: string) {
  const picker = page.getByTestId(testId);
  await picker.waitFor();
  return picker.locator('option').allTextContents();
}

let site: TestSite;

describe('the sheet and entry pickers, and the rows back', () => {
  beforeAll(async () => {
    site = await openSite();
  });

  afterAll(async () => {
    await site?.close();
  });

  it('ask which sheet or file on the public validator, and validate that one on the device', async () => {
    const page = await site.newPage();
    await page.goto('/csv-validator');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await buildSchema(page, 'People', FIELDS);

    await drop(page, 'people.xlsx', WORKBOOK);
    expect(await options(page, 'sheet-picker')).toEqual(['People', 'Second sheet']);
    await page.getByLabel('Sheet to validate').selectOption('Second sheet');
    await page.getByRole('button', { name: 'Validate on this device' }).click();
    await page.getByTestId('summary-stats').waitFor();
    const second = await engineFigures('people.xlsx', WORKBOOK, { sheet: 'Second sheet' });
    expect(await summaryFigures(page)).toEqual(second);
    expect(second).not.toEqual(await engineFigures('people.xlsx', WORKBOOK, {}));

    await page.getByRole('button', { name: 'Remove people.xlsx' }).click();
    await drop(page, 'export.zip', ZIP);
    expect(await options(page, 'entry-picker')).toEqual(['a.csv', 'b.csv']);
    expect(await page.getByTestId('sheet-picker').count()).toBe(0);
    await page.getByLabel('File in the zip to validate').selectOption('b.csv');
    await page.getByRole('button', { name: 'Validate on this device' }).click();
    await page.getByTestId('summary-stats').waitFor();
    expect(await summaryFigures(page)).toEqual(
      await engineFigures('export.zip', ZIP, { entry: 'b.csv' }),
    );

    // A plain CSV asks nothing.
    await page.getByRole('button', { name: 'Remove export.zip' }).click();
    await drop(page, 'plain.csv', Buffer.from(A_CSV));
    await page.getByRole('button', { name: 'Validate on this device' }).click();
    await page.getByTestId('summary-stats').waitFor();
    expect(await page.getByTestId('entry-picker').count()).toBe(0);
  });

  it('send the choice with the upload on the dashboard, and a Pro user downloads the rows', async () => {
    const page = await site.newPage();
    const username = `rows${Date.now().toString(36)}`;
    await signUp(page, username);
    await site.server.setTier(username, 'pro');
    await page.goto('/dashboard');
    await page.getByTestId('usage').waitFor();
    await buildSchema(page, 'People', FIELDS);

    await drop(page, 'export.zip', ZIP);
    await page.getByLabel('File in the zip to validate').selectOption('b.csv');
    await page.getByRole('button', { name: 'Validate file' }).click();
    await page.getByTestId('summary-stats').waitFor();
    const [total, valid, invalid] = await engineFigures('export.zip', ZIP, { entry: 'b.csv' });
    expect((await summaryFigures(page)).slice(0, 3)).toEqual([total, valid, invalid]);

    const downloads = page.getByTestId('row-downloads');
    const [validFile] = await Promise.all([
      page.waitForEvent('download'),
      downloads
        .getByRole('link', { name: /valid rows of export\.zip$/ })
        .first()
        .click(),
    ]);
    expect(validFile.suggestedFilename()).toBe('valid-rows-export.csv');
    expect(readDownloaded(await validFile.path())).toEqual([
      ['id', 'name', 'amount'],
      ['1', 'Bob', '4'],
      ['2', 'Cy', '5'],
    ]);
    const [invalidFile] = await Promise.all([
      page.waitForEvent('download'),
      downloads.getByRole('link', { name: /invalid rows of export\.zip/ }).click(),
    ]);
    expect(invalidFile.suggestedFilename()).toBe('invalid-rows-export.csv');
    const rows = readDownloaded(await invalidFile.path());
    expect(rows[0]).toEqual(['id', 'name', 'amount', 'errors']);
    expect(rows.slice(1).map((r) => r.slice(0, 3))).toEqual([
      ['3', '', '6'],
      ['4', 'Di', 'y'],
    ]);
    expect(rows[1]![3]).toMatch(/^name: /);
    expect(rows[2]![3]).toMatch(/^amount: /);
    expect(site.pageErrors).toEqual([]);
  });
});

import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DESKTOP, PHONE } from './support/browser.ts';
import { openSite, type TestSite } from './support/site.ts';
import {
  buildSchema,
  engineVerdict,
  expectToast,
  readDownloaded,
  screenshot,
  summaryFigures,
  tableRows,
  webSchemaOf,
  type FieldInput,
} from './support/workspace.ts';

// The public CSV validator: anonymous, in a Web Worker, with every request of the page watched to
// prove that the file's content never leaves the browser. Screenshots at 1280 and 390 px.

const MARKER = `SECRET-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

const FIELDS: FieldInput[] = [
  { name: 'sku', type: 'string', required: true },
  { name: 'price', type: 'number', required: true, minValue: '0' },
  { name: 'status', type: 'enum', values: ['active', 'retired'] },
];
// Over 64 KiB: past its first 64 KiB the engine reads clean records with its WebAssembly byte
// core (decision 248), so the browser's verdict is the core's as well as the JavaScript path's.
const rows = ['sku,price,status,note'];
for (let i = 0; i < 2400; i++) {
  const price = i % 9 === 0 ? 'free' : i % 13 === 0 ? '-3.5' : String(i + 0.99);
  const status = i % 11 === 0 ? 'gone' : i % 2 ? 'active' : 'retired';
  rows.push(`${i % 61 === 0 ? '' : `SKU-${i}`},${price},${status},${MARKER}`);
}
const CSV = `${rows.join('\n')}\n`;

let site: TestSite;
let page: Page;
const requests: Request[] = [];

describe('the in-browser CSV validator', () => {
  beforeAll(async () => {
    site = await openSite();
    page = await site.newPage();
    page.on('request', (request) => requests.push(request));
  });

  afterAll(async () => {
    await site?.close();
  });

  it('carries its landing content and says that files stay on the device', async () => {
    await page.goto('/csv-validator');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByTestId('privacy-note').textContent()).toContain(
      'Your file never leaves this device.',
    );
    await page.getByRole('heading', { name: 'How it works' }).waitFor();
    expect(await page.getByRole('link', { name: 'Sign up free' }).getAttribute('href')).toBe(
      '/auth?tab=register',
    );
    expect(await page.textContent('main')).toContain(
      'Choose a file and validate it to see results here',
    );
    await screenshot(page, 'csv-validator-1280');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'csv-validator-390');
    await page.setViewportSize(DESKTOP);
  });

  it("lets the engine compile its WebAssembly byte core under the site's policy", async () => {
    // Without 'wasm-unsafe-eval' in script-src the browser refuses, and the engine falls back
    // to its slower JavaScript path (decision 248).
    await page.goto('/csv-validator');
    const compiles = await page.evaluate(() => {
      try {
        new WebAssembly.Module(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
        return true;
      } catch {
        return false;
      }
    });
    expect(compiles).toBe(true);
  });

  it('validates in a worker, matches the engine, and downloads the report locally', async () => {
    await buildSchema(page, 'Products', FIELDS);
    await page.getByTestId('dropzone-input').setInputFiles({
      name: 'products.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(CSV),
    });
    await page.getByRole('button', { name: 'Validate on this device' }).click();
    await page.getByTestId('summary-stats').waitFor();

    const verdict = engineVerdict(webSchemaOf('Products', FIELDS), Buffer.from(CSV));
    expect(verdict.errorCount).toBeGreaterThan(50);
    expect(CSV.length).toBeGreaterThan(64 * 1024);
    await expectToast(
      page,
      'Validation completed with errors',
      `${verdict.invalidRows} rows have errors.`,
    );
    expect(await summaryFigures(page)).toEqual([
      verdict.totalRows,
      verdict.validRows,
      verdict.invalidRows,
      verdict.errorCount,
    ]);
    const table = await tableRows(page);
    expect(table.length).toBe(50);
    expect(table.map((r) => [Number(r[0]), r[1], r[2]])).toEqual(
      verdict.errors.slice(0, 50).map((e) => [e.row, e.field, e.message]),
    );
    await screenshot(page, 'csv-validator-errors-1280');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'csv-validator-errors-390');
    await page.setViewportSize(DESKTOP);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download error report' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('error-report-products.csv');
    const report = readDownloaded(await download.path());
    expect(report[0]).toEqual([
      'row',
      'field',
      'code',
      'message',
      'value',
      'severity',
      'suggestion',
    ]);
    expect(report.slice(1).map((r) => [Number(r[0]), r[1], r[2]])).toEqual(
      verdict.errors.map((e) => [e.row, e.field, e.code]),
    );
  });

  it('infers a schema from the file in the browser', async () => {
    await page.reload();
    await page.getByTestId('dropzone-input').setInputFiles({
      name: 'products.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(CSV),
    });
    await page.getByRole('button', { name: 'Infer from file' }).click();
    await expectToast(page, 'Schema inferred');
    const names = page.getByLabel('Field name', { exact: true });
    expect(await names.count()).toBe(4);
    expect(await names.first().inputValue()).toBe('sku');
    expect(await page.getByTestId('infer-skipped').count()).toBe(0);

    // A repeated header has no field of its own: the schema card says so.
    await page.reload();
    await page.getByTestId('dropzone-input').setInputFiles({
      name: 'twice.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('sku,price,sku\nA-1,2.50,B-1\n'),
    });
    await page.getByRole('button', { name: 'Infer from file' }).click();
    await expectToast(page, 'Schema inferred');
    expect(await names.count()).toBe(2);
    const skipped = page.getByTestId('infer-skipped');
    expect(await skipped.textContent()).toContain(
      '1 column of twice.csv has no field in the proposed schema:',
    );
    expect(await skipped.getByRole('listitem').allTextContents()).toEqual([
      'Column 3 repeats the name "sku"',
    ]);
  });

  it('imports a JSON Schema and says, beside the schema, which of its rules cannot be checked', async () => {
    await page.reload();
    // A broken schema first: nothing is replaced, and every problem is listed by path.
    await page.getByLabel('Import schema file').setInputFiles({
      name: 'broken.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ fields: [{ name: 'a', type: 'strng' }] })),
    });
    await expectToast(page, 'Schema not imported');
    const refused = page
      .getByRole('alert')
      .filter({ hasText: 'The imported schema was not used:' });
    expect(await refused.getByRole('listitem').allTextContents()).toEqual([
      expect.stringContaining('fields[0].type'),
    ]);
    await page.getByLabel('Import schema file').setInputFiles({
      name: 'feed.schema.json',
      mimeType: 'application/json',
      buffer: Buffer.from(
        JSON.stringify({
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: {
            sku: { type: 'string', pattern: '^SKU-[0-9]+$' },
            price: { oneOf: [{ type: 'number' }, { type: 'string' }] },
            code: { type: ['string', 'integer'] },
          },
          required: ['sku'],
        }),
      ),
    });
    await expectToast(page, 'Schema imported');
    expect(await refused.count()).toBe(0);
    const names = page.getByLabel('Field name', { exact: true });
    expect(await names.count()).toBe(3);
    // What the builder's form cannot hold is said too: `code` takes text or integers there.
    const losses = page.getByTestId('import-losses');
    expect(await losses.textContent()).toContain(
      'The schema builder cannot hold all of feed.schema.json; the schema shown says less:',
    );
    expect(await losses.getByRole('listitem').allTextContents()).toEqual([
      "Fields with several JSON types ('code') become text fields, which refuse JSON numbers and true/false",
    ]);
    const note = page.getByTestId('import-warnings');
    expect(await note.textContent()).toContain(
      'SchemaCheck cannot check 1 rule of feed.schema.json; validation goes on without it:',
    );
    expect(await note.getByRole('listitem').allTextContents()).toEqual([
      "Keyword 'oneOf' is not supported and was ignored at properties.price.oneOf",
    ]);
    await note.scrollIntoViewIfNeeded();
    await screenshot(page, 'csv-validator-import-warnings-1280');
    await note.getByRole('button', { name: 'Dismiss' }).click();
    expect(await page.getByTestId('import-warnings').count()).toBe(0);
  });

  it('sent nothing of the file to any server', () => {
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) {
      expect(request.url()).not.toContain(MARKER);
      const body = request.postDataBuffer();
      if (body) expect(body.includes(MARKER)).toBe(false);
      expect(request.url()).not.toContain('/api/validate');
    }
    expect(requests.filter((r) => r.method() === 'POST').map((r) => r.url())).toEqual([]);
  });

  it('raised no uncaught page errors', () => {
    expect(site.pageErrors).toEqual([]);
  });
});

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DESKTOP, PHONE } from './support/browser.ts';
import { openSite, signUp, type TestSite } from './support/site.ts';
import {
  buildSchema,
  chooseFile,
  engineVerdict,
  expectToast,
  readDownloaded,
  screenshot,
  summaryFigures,
  tableRows,
  webSchemaOf,
  type FieldInput,
} from './support/workspace.ts';

// The validation workspace against the real server: a user builds a schema in the UI, validates
// a CSV with planted errors, checks the counts against the engine's own verdict on the same
// bytes, filters, and downloads the report (as a Pro user); a Pro user saves and loads a schema;
// a free user meets the file-size and row-limit dialogs. Dashboard screenshots at 1280 and 390 px.

const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const proUser = `pro_${suffix}`;
const freeUser = `free_${suffix}`;

const FIELDS: FieldInput[] = [
  { name: 'id', type: 'integer', required: true },
  { name: 'email', type: 'email', required: true },
  { name: 'age', type: 'integer', minValue: '0', maxValue: '120' },
];
const SCHEMA_NAME = 'Customers';

const PLANTED = [
  'id,email,age',
  '1,alice@example.com,34',
  '2,not-an-email,29',
  'x3,bob@example.com,130',
  '4,,40',
  '5,carol@example.com,-1',
  '6,dave@example.com,50',
  '7,erin@example,abc',
  '8,frank@example.com,',
  '',
].join('\r\n');
const VALID = [
  'id,email,age',
  '1,a@example.com,1',
  '2,b@example.com,2',
  '3,c@example.com,3',
  '',
].join('\n');

let site: TestSite;

describe('the validation workspace', () => {
  let pro: Page;
  let free: Page;

  beforeAll(async () => {
    site = await openSite();
    pro = await site.newPage();
    free = await site.newPage();
    await signUp(pro, proUser);
    await signUp(free, freeUser);
    await site.server.setTier(proUser, 'pro');
  });

  afterAll(async () => {
    await site?.close();
  });

  it('shows usage, plan limits and the empty results placeholder', async () => {
    await pro.goto('/dashboard');
    await pro.getByTestId('usage').waitFor();
    const usage = await pro.getByTestId('usage').textContent();
    expect(usage).toContain('Used');
    expect(usage).toMatch(/Resets on 1 [A-Z][a-z]+ \d{4}/);
    expect(await pro.textContent('main')).toContain('25 MB');
    expect(await pro.textContent('main')).toContain('50,000 rows');

    // Free checks on the device (docs/decisions/227): its figures are said for the server.
    await free.goto('/dashboard');
    await free.getByTestId('on-device-card').waitFor();
    const upload = await free.getByTestId('tier-badge').textContent();
    expect(upload).toBe('Free');
    expect(await free.textContent('main')).toContain(
      'The Free plan’s 1 MB and 500 rows apply only to what runs and is stored on our servers',
    );
    expect(await free.textContent('main')).toContain(
      'Upload a file and validate it to see results here',
    );
    expect(await free.getByRole('button', { name: 'Validate file' }).isDisabled()).toBe(true);
    await screenshot(free, 'dashboard-empty-1280');
    await free.setViewportSize(PHONE);
    await screenshot(free, 'dashboard-empty-390');
    await free.setViewportSize(DESKTOP);
  });

  it('validates a CSV with planted errors and shows the engine’s exact counts', async () => {
    const page = pro;
    await page.goto('/dashboard');
    await page.getByTestId('tier-badge').filter({ hasText: 'Pro' }).waitFor();
    await buildSchema(page, SCHEMA_NAME, FIELDS);
    await chooseFile(page, 'customers.csv', PLANTED);
    expect(await page.getByTestId('selected-file-name').textContent()).toBe('customers.csv');

    // Hold the answer back until the progress panel has been seen and photographed (a fixed delay
    // was too short on a busy machine and the panel could be gone before it was checked).
    let releaseAnswer = () => {};
    const answerHeld = new Promise<void>((resolve) => (releaseAnswer = resolve));
    await page.route(
      '**/api/validate',
      async (route) => {
        await answerHeld;
        await route.continue();
      },
      { times: 1 },
    );
    await page.getByRole('button', { name: 'Validate file' }).click();
    await page.getByTestId('validation-progress').waitFor();
    expect(await page.getByTestId('validation-progress').textContent()).toContain(
      'Large files may take longer to process',
    );
    await screenshot(page, 'dashboard-validating-1280');
    releaseAnswer();

    const verdict = engineVerdict(webSchemaOf(SCHEMA_NAME, FIELDS), Buffer.from(PLANTED));
    expect(verdict.errorCount).toBeGreaterThan(0);
    await page.getByTestId('summary-stats').waitFor();
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
    expect(await page.getByTestId('validation-status').textContent()).toContain(
      'Validation completed with errors',
    );
    const rows = await tableRows(page);
    expect(rows.length).toBe(verdict.errorCount);
    expect(rows.map((r) => [Number(r[0]), r[1], r[2]])).toEqual(
      verdict.errors.map((e) => [e.row, e.field, e.message]),
    );
    await screenshot(page, 'dashboard-errors-1280');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'dashboard-errors-390');
    await page.setViewportSize(DESKTOP);

    // Filters: OR within a group, AND across groups.
    const emailErrors = verdict.errors.filter((e) => e.field === 'email');
    await page.getByTestId('field-filters').getByText('email', { exact: true }).click();
    expect((await tableRows(page)).map((r) => r[1])).toEqual(emailErrors.map(() => 'email'));
    await page.getByTestId('field-filters').getByText('age', { exact: true }).click();
    const emailOrAge = verdict.errors.filter((e) => e.field === 'email' || e.field === 'age');
    expect((await tableRows(page)).length).toBe(emailOrAge.length);
    const message = verdict.errors.find((e) => e.field === 'age')!.message;
    await page.getByTestId('message-filters').getByText(message, { exact: true }).click();
    const both = emailOrAge.filter((e) => e.message === message);
    expect((await tableRows(page)).map((r) => [r[1], r[2]])).toEqual(
      both.map((e) => [e.field, e.message]),
    );
    // A message that no email/age error has: nothing matches.
    const other = verdict.errors.find((e) => e.field === 'id')!.message;
    await page.getByTestId('message-filters').getByText(message, { exact: true }).click();
    await page.getByTestId('message-filters').getByText(other, { exact: true }).click();
    if (!emailOrAge.some((e) => e.message === other)) {
      expect(await page.textContent('main')).toContain('No errors match the selected filters.');
    }
    await page.getByRole('button', { name: 'Clear filters' }).click();
    expect((await tableRows(page)).length).toBe(verdict.errorCount);

    // The full report, downloaded as a Pro user.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download error report' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('error-report-customers.csv');
    const report = readDownloaded(await download.path());
    const header = report[0]!;
    const col = (name: string) => header.indexOf(name);
    expect(col('row')).toBeGreaterThanOrEqual(0);
    const body = report.slice(1);
    expect(body.length).toBe(verdict.errorCount);
    expect(body.map((r) => [Number(r[col('row')]), r[col('field')], r[col('code')]])).toEqual(
      verdict.errors.map((e) => [e.row, e.field, e.code]),
    );
  });

  it('clears the result when the schema changes, and shows the all-valid summary', async () => {
    const page = pro;
    await page.getByLabel('Field name', { exact: true }).first().fill('id');
    await page.getByLabel('Schema name', { exact: true }).fill(`${SCHEMA_NAME} v2`);
    await expect
      .poll(() => page.textContent('main'))
      .toContain('Upload a file and validate it to see results here');
    await page.getByRole('button', { name: 'Remove customers.csv' }).click();
    await chooseFile(page, 'valid.csv', VALID);
    await page.getByRole('button', { name: 'Validate file' }).click();
    await page.getByRole('heading', { name: 'Perfect! No errors found' }).waitFor();
    expect(await page.textContent('main')).toContain('All 3 rows passed validation successfully.');
    await expectToast(page, 'Validation successful', 'All 3 rows are valid.');
    await screenshot(page, 'dashboard-valid-1280');
  });

  it('saves a schema as a Pro user, and loads it after a reload', async () => {
    const page = pro;
    await page.getByLabel('Schema name', { exact: true }).fill(SCHEMA_NAME);
    await page.getByRole('button', { name: 'Save schema' }).click();
    await expectToast(page, 'Schema saved', 'Your schema has been saved successfully.');
    await page.reload();
    await page.getByTestId('tier-badge').waitFor();
    expect(await page.getByLabel('Field name', { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Load schema' }).click();
    await page.getByRole('button', { name: `Load ${SCHEMA_NAME}` }).click();
    await expectToast(page, 'Schema loaded');
    const names = page.getByLabel('Field name', { exact: true });
    expect(await names.count()).toBe(3);
    expect(await Promise.all([0, 1, 2].map((i) => names.nth(i).inputValue()))).toEqual([
      'id',
      'email',
      'age',
    ]);
    expect(await page.getByLabel('Type', { exact: true }).nth(2).inputValue()).toBe('integer');
    const age = page.getByRole('listitem', { name: 'age' });
    expect(await age.getByLabel('Max value').inputValue()).toBe('120');
    expect(await age.getByLabel('Min value').inputValue()).toBe('0');
    expect(await page.getByLabel('Required', { exact: true }).nth(1).isChecked()).toBe(true);
  });

  it('reorders fields with the keyboard-accessible move buttons', async () => {
    const page = pro;
    await page.getByRole('button', { name: 'Move age up' }).click();
    const names = page.getByLabel('Field name', { exact: true });
    await expect
      .poll(() => Promise.all([0, 1, 2].map((i) => names.nth(i).inputValue())))
      .toEqual(['id', 'age', 'email']);
    // Focus stays on the moved field's button, so Enter moves it again.
    await page.keyboard.press('Enter');
    expect(await Promise.all([0, 1, 2].map((i) => names.nth(i).inputValue()))).toEqual([
      'age',
      'id',
      'email',
    ]);
  });

  it('checks a free user’s file over the plan’s rows on the device; save and load stay paid', async () => {
    const page = free;
    await page.goto('/dashboard');
    await page.getByTestId('tier-badge').waitFor();
    const dialog = page.getByTestId('upgrade-dialog');

    await page.getByRole('button', { name: 'Save schema (paid plans)' }).click();
    await dialog.getByRole('heading', { name: 'Saving schemas is a paid feature' }).waitFor();
    expect(await dialog.getByRole('link', { name: 'View Plans' }).getAttribute('href')).toBe(
      '/profile?upgrade=pro#plans',
    );
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Load schema (paid plans)' }).click();
    await dialog
      .getByRole('heading', { name: 'Loading saved schemas is a paid feature' })
      .waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // 501 rows, one of them wrong: no row-limit dialog, and the report is offered.
    await buildSchema(page, 'Rows', [{ name: 'n', type: 'integer', required: true }]);
    const many = ['n', ...Array.from({ length: 500 }, (_, i) => String(i + 1)), 'two', ''].join(
      '\n',
    );
    await chooseFile(page, 'rows.csv', many);
    await page.getByRole('button', { name: 'Validate file' }).click();
    await page.getByTestId('summary-stats').waitFor();
    expect(await summaryFigures(page)).toEqual([501, 500, 1, 1]);
    expect(await dialog.count()).toBe(0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download error report' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('error-report-rows.csv');
  });

  it('raised no uncaught page errors', () => {
    expect(site.pageErrors).toEqual([]);
  });
});

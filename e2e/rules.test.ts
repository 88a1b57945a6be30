import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DESKTOP, PHONE } from './support/browser.ts';
import { REPO_ROOT, SCREENSHOT_DIR } from './support/paths.ts';
import { openSite, signUp, type TestSite } from './support/site.ts';
import {
  buildSchema,
  chooseFile,
  expectToast,
  openProfile,
  readDownloaded,
  screenshot,
} from './support/workspace.ts';

// Issue 22 end to end in Chromium against the real server: a reference list uploaded on the
// Profile page, a schema built in the dashboard with an `inList` field and a cross-field rule
// (chosen from the Rules section's drop-downs, marked as a warning), a file validated on the
// server: the list miss shows as an error with its "did you mean" suggestion, the rule's failure
// as a warning with its severity, and the file's other rows pass. Then a rule built with the
// keyboard alone, saved, loaded back after a reload and validated; the same schema (exported from
// the builder) and file give the same errors through /v1/validate and the built CLI. And "Infer
// from file" lists a composite key as a suggestion, added only by its button.

const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const user = `rules_${suffix}`;

const LEDGER = [
  'category,start,end',
  'Income,2024-01-01,2024-01-31',
  'Expnese,2024-02-01,2024-02-28',
  'Transfer,2024-03-10,2024-03-01',
].join('\n');

const ORDERS = [
  'order_id,status,ship_date',
  'A1,shipped,2024-01-02',
  'A2,Shiped,2024-01-03',
  'A3,shipped,',
  'A4,pending,',
].join('\n');

/** One error as every output can say it. */
interface Seen {
  row: number;
  field: string;
  code: string;
  message: string;
  value: string;
  suggestion: string;
}

const CLI_BIN = path.join(REPO_ROOT, 'packages/cli/bin/schemacheck.js');

let site: TestSite;
let page: Page;

/** The cells of each row of a results table (the warnings' or the errors'). */
const rowsOf = (table: ReturnType<Page['getByTestId']>) =>
  table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => Array.from(row.querySelectorAll('td'), (td) => td.textContent ?? '')),
    );

/**
 * The section at 1280 and 390 px wide, its top below the sticky header (the window is made tall
 * enough for the whole section, so that the shot does not scroll it under the header).
 */
async function shootSection(section: ReturnType<Page['getByRole']>, name: string) {
  for (const [size, label] of [
    [DESKTOP, '1280'],
    [PHONE, '390'],
  ] as const) {
    await page.setViewportSize({ width: size.width, height: 1600 });
    await section.evaluate((el) => {
      el.scrollIntoView({ block: 'start' });
      window.scrollBy(0, -96);
    });
    await section.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${label}.png`) });
  }
  await page.setViewportSize(DESKTOP);
}

describe('cross-field rules and reference lists in the browser', () => {
  beforeAll(async () => {
    site = await openSite({ bypassCSP: true });
    page = await site.newPage();
    await signUp(page, user);
    await site.server.setTier(user, 'pro');
  });

  afterAll(async () => {
    await site?.close();
  });

  it('uploads a list on the Profile page, with its size and the plan limit', async () => {
    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'Reference lists' });
    await section.getByText('10,000 values a list').waitFor();
    await section.getByLabel('List name').fill('categories');
    await section.getByLabel(/^File/).setInputFiles({
      name: 'categories.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Income\nExpense\nTransfer\n'),
    });
    await section.getByRole('button', { name: 'Upload list' }).click();
    const item = section.getByRole('list', { name: 'Your reference lists' }).getByRole('listitem');
    await item.filter({ hasText: 'categories' }).waitFor();
    expect(await item.textContent()).toContain('3 of 10,000 values');
  });

  it('renames a list with the keyboard, says a name in use under the field, and marks a list over the plan limit', async () => {
    // A list saved on Business is kept on Pro, marked, and not checked (decision 260).
    await site.server.setTier(user, 'business');
    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'Reference lists' });
    await section.getByText('1,000,000 values a list').waitFor();
    await section.getByLabel('List name').fill('big');
    await section.getByLabel(/^File/).setInputFiles({
      name: 'big.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(Array.from({ length: 10_001 }, (_, i) => `B${i}`).join('\n')),
    });
    await section.getByRole('button', { name: 'Upload list' }).click();
    await expectToast(page, 'List saved');
    await site.server.setTier(user, 'pro');
    await page.reload();
    const items = section.getByRole('list', { name: 'Your reference lists' }).getByRole('listitem');
    const big = items.filter({ hasText: 'big' });
    await big.getByText('Over the plan’s limit').waitFor();
    expect(await big.textContent()).toContain('10,001 of 10,000 values');
    expect(await big.textContent()).toContain(
      'Not checked in validations: your plan allows 10,000 values a list.',
    );

    // Rename it with the keyboard alone: the button, the field (focused, its text selected),
    // a name in use said under the field, then a free one.
    await section.getByRole('button', { name: 'Rename list big' }).focus();
    await page.keyboard.press('Enter');
    const field = section.getByLabel('New name for big');
    await field.waitFor();
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('categories');
    await page.keyboard.press('Enter');
    const inUse = section.getByText('A list named categories exists.');
    await inUse.waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await field.getAttribute('aria-describedby')).toContain(
      (await inUse.locator('xpath=..').getAttribute('id')) ?? 'no id',
    );
    expect(await field.inputValue()).toBe('categories');
    await shootSection(section, 'profile-lists-rename');

    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('archive');
    await page.keyboard.press('Enter');
    // Left open: closing it with a click would move the focus.
    await expectToast(page, 'List renamed', 'big is now archive.', { dismiss: false });
    const renameArchive = section.getByRole('button', { name: 'Rename list archive' });
    await renameArchive.waitFor();
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('aria-label') === 'Rename list archive',
    );
    // Escape closes the field without a change.
    await page.keyboard.press('Enter');
    await section.getByLabel('New name for archive').waitFor();
    await page.keyboard.press('Escape');
    await renameArchive.waitFor();
    expect(await items.filter({ hasText: 'archive' }).textContent()).toContain('10,001 of 10,000');
    await shootSection(section, 'profile-lists');
  });

  it('validates with an inList field and a rule: the error with its suggestion, the warning with its severity', async () => {
    await page.goto('/dashboard');
    await buildSchema(page, 'Ledger', [
      { name: 'category', type: 'string', required: true },
      { name: 'start', type: 'date', required: true },
      { name: 'end', type: 'date', required: true },
    ]);
    const category = page
      .locator('ol > li')
      .filter({ has: page.getByLabel('Field name', { exact: true }) })
      .first();
    await category.getByText('Reference list, severity and message').click();
    await category.getByLabel('In reference list').fill('categories');

    // The rule, chosen with the keyboard from its labelled drop-downs.
    await page.getByRole('button', { name: 'Add rule' }).click();
    const rule = page.getByTestId('rule').first();
    await rule.getByLabel('Rule', { exact: true }).focus();
    await rule.getByLabel('Rule', { exact: true }).selectOption('compare');
    await rule.getByLabel('Field', { exact: true }).selectOption('end');
    await rule.getByLabel('Must be').selectOption('>=');
    await rule.getByLabel('Other field').selectOption('start');
    await rule.getByLabel('Severity').selectOption('warning');
    await page.keyboard.press('Tab');

    await chooseFile(page, 'ledger.csv', LEDGER);
    await page.getByRole('button', { name: 'Validate file' }).click();
    await page.getByTestId('summary-stats').waitFor();
    await screenshot(page, 'rules-results-1280');

    const errors = await rowsOf(page.getByTestId('error-table').last());
    expect(errors).toEqual([
      [
        '3',
        'category',
        'Must be a value of the list categories. Did you mean "Expense"?',
        'Expnese',
        'Error',
        'Expense',
      ],
    ]);
    const warnings = page.getByTestId('rule-warnings');
    expect(await warnings.getByRole('heading').textContent()).toContain('1 warning');
    const warned = await rowsOf(warnings.getByTestId('error-table'));
    expect(warned).toHaveLength(1);
    expect(warned[0]!.slice(0, 2)).toEqual(['4', 'end']);
    expect(warned[0]![2]).toContain('Must be on or after start');
    expect(warned[0]![4]).toBe('Warning');
  });

  it('builds a rule with the keyboard alone, saves it, loads it back, and gets the same errors in the browser, the API and the CLI', async () => {
    await site.server.setTier(user, 'business');
    await page.goto('/dashboard');
    const schemaName = `Orders ${suffix}`;
    await buildSchema(page, schemaName, [
      { name: 'order_id', type: 'string', required: true },
      { name: 'status', type: 'enum', required: true, values: ['shipped', 'pending', 'cancelled'] },
      { name: 'ship_date', type: 'date' },
    ]);

    // From the Add rule button on, keys only. Enter adds the rule and puts focus in it.
    await page.getByRole('button', { name: 'Add rule' }).focus();
    await page.keyboard.press('Enter');
    const rule = page.getByTestId('rule').first();
    const focusedLabel = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        const label = el?.id ? document.querySelector(`label[for="${el.id}"]`) : null;
        return label?.textContent?.trim() ?? '';
      });
    expect(await focusedLabel()).toBe('Field');
    // The focus ring shows where the keyboard is.
    expect(
      await page.evaluate(() => {
        const el = document.activeElement!;
        return el.matches(':focus-visible') && getComputedStyle(el).boxShadow !== 'none';
      }),
    ).toBe(true);
    // Field: the third of order_id, status, ship_date.
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    expect(await focusedLabel()).toBe('Rule');
    // "is required when" is the first kind: down and back up again, as a person checking the list.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Tab');
    expect(await focusedLabel()).toBe('When field');
    for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    expect(await focusedLabel()).toBe('Condition');
    await page.keyboard.press('Tab');
    expect(await focusedLabel()).toBe('Condition value');
    await page.keyboard.type('shipped');
    await page.keyboard.press('Tab');
    expect(await focusedLabel()).toBe('Severity');
    await page.keyboard.press('Shift+Tab');
    expect(await focusedLabel()).toBe('Condition value');

    const ruleValues = () =>
      Promise.all(
        ['Field', 'Rule', 'When field', 'Condition', 'Condition value', 'Severity'].map((label) =>
          rule.getByLabel(label, { exact: true }).inputValue(),
        ),
      );
    const built = ['ship_date', 'requiredWhen', 'status', '=', 'shipped', 'error'];
    expect(await ruleValues()).toEqual(built);

    await page.getByRole('button', { name: 'Save schema' }).focus();
    await page.keyboard.press('Enter');
    await expectToast(page, 'Schema saved');

    await page.reload();
    await page.getByTestId('tier-badge').waitFor();
    expect(await page.getByTestId('rule').count()).toBe(0);
    await page.getByRole('button', { name: 'Load schema' }).click();
    await page.getByRole('button', { name: `Load ${schemaName}` }).click();
    await expectToast(page, 'Schema loaded');
    expect(await ruleValues()).toEqual(built);

    // The schema as the builder exports it: what the API and the CLI get.
    const [exported] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export schema' }).click(),
    ]);
    const schemaText = readFileSync(await exported.path(), 'utf8');
    expect(JSON.parse(schemaText).rules).toEqual([
      expect.objectContaining({
        kind: 'requiredWhen',
        field: 'ship_date',
        when: { field: 'status', op: '=', value: 'shipped' },
      }),
    ]);

    await chooseFile(page, 'orders.csv', ORDERS);
    await page.getByRole('button', { name: 'Validate file' }).click();
    await page.getByTestId('summary-stats').waitFor();
    await screenshot(page, 'rules-keyboard-results-1280');
    const table = await rowsOf(page.getByTestId('error-table').last());
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download error report' }).click(),
    ]);
    const [header, ...body] = readDownloaded(await download.path());
    const col = (name: string) => header!.indexOf(name);
    const web: Seen[] = body.map((r) => ({
      row: Number(r[col('row')]),
      field: r[col('field')]!,
      code: r[col('code')]!,
      message: r[col('message')]!,
      value: r[col('value')]!,
      suggestion: r[col('suggestion')]!,
    }));
    const expected: Seen[] = [
      {
        row: 3,
        field: 'status',
        code: 'enum',
        message: expect.stringMatching(/Did you mean "shipped"\?$/) as unknown as string,
        value: 'Shiped',
        suggestion: 'shipped',
      },
      {
        row: 4,
        field: 'ship_date',
        code: 'required_when',
        message: 'Required when status is "shipped"',
        value: '',
        suggestion: '',
      },
    ];
    expect(web).toEqual(expected);
    // The results table says the same: row, field, message, value (an empty cell as "(empty)"),
    // severity, "did you mean".
    expect(table).toEqual(
      web.map((e) => [
        String(e.row),
        e.field,
        e.message,
        e.value || '(empty)',
        'Error',
        e.suggestion,
      ]),
    );

    // The API, with a key made on the Profile page.
    await openProfile(page);
    await page.getByLabel('Key name').fill('rules');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expectToast(page, 'API key created');
    const key = (await page.getByTestId('new-api-key').textContent())!.trim();
    const form = new FormData();
    form.append('schema', schemaText);
    form.append('file', new Blob([ORDERS]), 'orders.csv');
    const res = await fetch(`${site.server.baseUrl}/api/v1/validate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as {
      valid: boolean;
      // The API names the field `column` (its contract since v1).
      sample_errors: (Omit<Seen, 'field' | 'value' | 'suggestion'> & {
        column: string;
        value: string | null;
        suggestion?: string;
      })[];
    };
    expect(answer.valid).toBe(false);
    const api: Seen[] = answer.sample_errors.map((e) => ({
      row: e.row,
      field: e.column,
      code: e.code,
      message: e.message,
      value: e.value ?? '',
      suggestion: e.suggestion ?? '',
    }));
    expect(api).toEqual(web);

    // The built CLI on the same two files.
    execFileSync(process.execPath, [path.join(REPO_ROOT, 'packages/cli/scripts/build.js')], {
      cwd: path.join(REPO_ROOT, 'packages/cli'),
      stdio: 'pipe',
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'rules-e2e-'));
    writeFileSync(path.join(dir, 'orders.schema.json'), schemaText);
    writeFileSync(path.join(dir, 'orders.csv'), ORDERS);
    let stdout = '';
    try {
      execFileSync(
        process.execPath,
        [CLI_BIN, 'validate', 'orders.csv', '--schema', 'orders.schema.json', '--format', 'json'],
        { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
      );
    } catch (error) {
      // Exit 1: the file has errors; the JSON result is on stdout.
      expect((error as { status: number }).status).toBe(1);
      stdout = (error as { stdout: string }).stdout;
    }
    const result = JSON.parse(stdout) as {
      valid: boolean;
      errors: (Omit<Seen, 'value' | 'suggestion'> & {
        value: string | null;
        suggestion?: string;
      })[];
    };
    expect(result.valid).toBe(false);
    const cli: Seen[] = result.errors.map((e) => ({
      row: e.row,
      field: e.field,
      code: e.code,
      message: e.message,
      value: e.value ?? '',
      suggestion: e.suggestion ?? '',
    }));
    expect(cli).toEqual(web);
  });

  it('lists a composite key found by Infer from file as a suggestion, added only by its button', async () => {
    await page.goto('/dashboard');
    await page.getByTestId('tier-badge').waitFor();
    const stock = Array.from({ length: 12 }, (_, i) => `S${i % 4},W${Math.floor(i / 4)},5`);
    await chooseFile(page, 'stock.csv', ['sku,warehouse,qty', ...stock].join('\n'));
    await page.getByRole('button', { name: 'Infer from file' }).click();
    const note = page.getByTestId('infer-rules');
    await note.waitFor();
    expect(await note.textContent()).toContain('sku and warehouse are unique together.');
    expect(await page.getByTestId('rule').count()).toBe(0);
    await note.getByRole('button', { name: 'Add rule: sku and warehouse unique together' }).click();
    await note.waitFor({ state: 'detached' });
    const rule = page.getByTestId('rule').first();
    expect(await rule.getByLabel('Rule', { exact: true }).inputValue()).toBe('uniqueTogether');
    expect(await rule.getByLabel('sku').isChecked()).toBe(true);
    expect(await rule.getByLabel('warehouse').isChecked()).toBe(true);
    expect(await rule.getByLabel('qty').isChecked()).toBe(false);
  });
});

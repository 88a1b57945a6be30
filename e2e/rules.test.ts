import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openSite, signUp, type TestSite } from './support/site.ts';
import { buildSchema, chooseFile, screenshot } from './support/workspace.ts';

// Issue 22 end to end in Chromium against the real server: a reference list uploaded on the
// Profile page, a schema built in the dashboard with an `inList` field and a cross-field rule
// (chosen from the Rules section's drop-downs, marked as a warning), a file validated on the
// server: the list miss shows as an error with its "did you mean" suggestion, the rule's failure
// as a warning with its severity, and the file's other rows pass.

const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const user = `rules_${suffix}`;

const LEDGER = [
  'category,start,end',
  'Income,2024-01-01,2024-01-31',
  'Expnese,2024-02-01,2024-02-28',
  'Transfer,2024-03-10,2024-03-01',
].join('\n');

let site: TestSite;
let page: Page;

/** The cells of each row of a results table (the warnings' or the errors'). */
const rowsOf = (table: ReturnType<Page['getByTestId']>) =>
  table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => Array.from(row.querySelectorAll('td'), (td) => td.textContent ?? '')),
    );

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
});

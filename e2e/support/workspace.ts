import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import {
  parseSchema,
  validateBytes,
  type ValidationResult,
  type WebSchema,
} from '@schemacheck/engine';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

import { ACTION_TIMEOUT, type ToastLog } from './browser.ts';
import { SCREENSHOT_DIR } from './paths.ts';

// Helpers for the validation workspace tests: drive the schema builder, read the results, and
// compute the engine's own verdict on the same bytes to compare with what the page shows.

export interface FieldInput {
  name: string;
  type: string;
  required?: boolean;
  minValue?: string;
  maxValue?: string;
  values?: string[];
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // From the top: the sticky header would otherwise be drawn in the middle of a full-page shot.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Puts a file in the dashboard's dropzone. */
export async function chooseFile(
  page: Page,
  name: string,
  content: string | Buffer,
  mimeType = 'text/csv',
): Promise<void> {
  await page.getByTestId('dropzone-input').setInputFiles({
    name,
    mimeType,
    buffer: typeof content === 'string' ? Buffer.from(content) : content,
  });
}

/** Adds the fields through the builder's inputs, in order. */
export async function buildSchema(page: Page, name: string, fields: FieldInput[]): Promise<void> {
  // On a pre-rendered validator page, typing before hydration is first-tap.test.ts's subject.
  await page.waitForFunction(() => 'hydrated' in document.documentElement.dataset);
  await page.getByLabel('Schema name', { exact: true }).fill(name);
  for (const [i, field] of fields.entries()) {
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByLabel('Field name', { exact: true }).nth(i).fill(field.name);
    await page.getByLabel('Type', { exact: true }).nth(i).selectOption(field.type);
    if (field.required) await page.getByLabel('Required', { exact: true }).nth(i).check();
    const item = page
      .locator('ol > li')
      .filter({ has: page.getByLabel('Field name', { exact: true }) })
      .nth(i);
    if (field.minValue !== undefined) await item.getByLabel('Min value').fill(field.minValue);
    if (field.maxValue !== undefined) await item.getByLabel('Max value').fill(field.maxValue);
    if (field.values) await item.getByLabel('Allowed values').fill(field.values.join('\n'));
  }
}

/** The same schema in the web form, for the engine's verdict. */
export function webSchemaOf(name: string, fields: FieldInput[]): WebSchema {
  return {
    name,
    fileType: 'csv',
    fields: fields.map((f) => {
      const validation: Record<string, unknown> = {};
      if (f.minValue !== undefined) validation.minValue = Number(f.minValue);
      if (f.maxValue !== undefined) validation.maxValue = Number(f.maxValue);
      if (f.values) validation.values = f.values;
      return {
        name: f.name,
        type: f.type as WebSchema['fields'][number]['type'],
        required: Boolean(f.required),
        validation,
      };
    }),
  };
}

export function engineVerdict(schema: WebSchema, bytes: Uint8Array): ValidationResult {
  const parsed = parseSchema(schema, 'web');
  if (!parsed.ok) throw new Error(`test schema refused: ${JSON.stringify(parsed.problems)}`);
  return validateBytes(parsed.value, bytes, { fileType: 'csv', maxErrors: 100_000 });
}

/** The four figures of the error summary, in order: total, valid, invalid, errors. */
export async function summaryFigures(page: Page): Promise<number[]> {
  const values = await page.getByTestId('summary-stats').locator('dd').allTextContents();
  return values.map((v) => Number(v.replace(/[^\d]/g, '')));
}

export async function tableRows(page: Page): Promise<string[][]> {
  return page
    .getByTestId('error-table')
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => Array.from(row.querySelectorAll('td'), (td) => td.textContent ?? '')),
    );
}

/** A small RFC 4180 reader for the downloaded report. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      // CRLF: the \n ends the record
    } else if (c === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

export function readDownloaded(filePath: string): string[][] {
  return parseCsv(readFileSync(filePath, 'utf8'));
}

/**
 * Waits for a toast with this title and checks its text; then closes it unless told not to. The
 * toast is looked for in the page's log of toasts (recordToasts), where one that has closed itself
 * already is still found, each one matched once; on a page without the log, on the screen.
 */
export async function expectToast(
  page: Page,
  title: string,
  description?: string,
  { dismiss = true }: { dismiss?: boolean } = {},
): Promise<void> {
  const shown = await page.waitForFunction(
    (title) => {
      // As Playwright's hasText: case and runs of white space aside.
      const norm = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
      const wanted = norm(title);
      const log = (window as ToastLog).__toasts;
      if (log) {
        const i = log.findIndex((text) => norm(text).includes(wanted));
        return i < 0 ? null : log.splice(i, 1)[0];
      }
      const toasts = Array.from(document.querySelectorAll('li.toast'), (t) => t.textContent ?? '');
      return toasts.find((text) => norm(text).includes(wanted)) ?? null;
    },
    title,
    { timeout: ACTION_TIMEOUT },
  );
  const text = (await shown.jsonValue()) as string;
  if (description !== undefined) expect(text).toContain(description);
  if (!dismiss) return;
  const toast = page.locator('li.toast').filter({ hasText: title }).first();
  // It may have closed itself already; closing it keeps the next toasts from stacking on it.
  await toast
    .getByRole('button', { name: 'Close notification' })
    .click({ timeout: 2_000 })
    .catch(() => undefined);
  await toast.waitFor({ state: 'detached' });
}

/**
 * Opens /profile and waits until its sections have their data: until then each shows a
 * "Loading …" line and grows when its data arrives, moving what is below it, and a click on a
 * control that moved lands on something else (a key was never created so, at load 12).
 */
export async function openProfile(page: Page): Promise<void> {
  await page.goto('/profile');
  await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
  await expect
    .poll(() => page.getByText(/^\s*Loading .*(…|\.\.\.)\s*$/).count(), {
      timeout: ACTION_TIMEOUT,
    })
    .toBe(0);
}

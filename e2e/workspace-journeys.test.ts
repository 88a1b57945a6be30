import type { Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DESKTOP, PHONE } from './support/browser.ts';
import { openSite, signUp, type TestSite } from './support/site.ts';
import {
  buildSchema,
  chooseFile,
  engineVerdict,
  expectToast,
  readDownloaded,
  summaryFigures,
  webSchemaOf,
  type FieldInput,
} from './support/workspace.ts';

// The journeys between the workspace's pieces (issue 26), in Chromium against the real server:
// the Free dashboard validating a file over the plan's 1 MB on the device (every request of the
// page watched), the Validate bar that covers nothing at 1280 and is one line at 390, dialogs
// and the side menu by keyboard, a job posted through the API appearing by itself, and no
// horizontal scrolling on phones. Screenshots go to /tmp/workspace-journeys-*.png.

const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const freeUser = `jfree_${suffix}`;
const proUser = `jpro_${suffix}`;
const businessUser = `jbiz_${suffix}`;

const MARKER = `PRIVATE-${suffix}`;
const FIELDS: FieldInput[] = [
  { name: 'id', type: 'integer', required: true },
  { name: 'email', type: 'email', required: true },
  { name: 'note', type: 'string' },
];
/** About 1.9 MB and 30,000 rows: over the Free plan's server figures (1 MB, 500 rows). */
const BIG_CSV = `id,email,note\n${Array.from({ length: 30_000 }, (_, i) =>
  i % 997 === 5 ? `${i},not-an-email,${MARKER}` : `${i},p${i}@example.com,${MARKER}`,
).join('\n')}\n`;

const JOB_CSV = `id,email\n${Array.from({ length: 200 }, (_, i) => `${i},p${i}@example.com`).join('\n')}\n`;
const JOB_SCHEMA = JSON.stringify({
  fileType: 'csv',
  fields: [
    { name: 'id', type: 'integer', required: true },
    { name: 'email', type: 'email', required: true },
  ],
});

let site: TestSite;

const shot = (page: Page, name: string, fullPage = false) =>
  page.screenshot({ path: `/tmp/workspace-journeys-${name}.png`, fullPage });

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  expect(b).not.toBeNull();
  return b!;
}

function overlaps(
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function focusedText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return `${el?.getAttribute('aria-label') ?? ''}|${el?.textContent?.trim() ?? ''}`;
  });
}

async function noHorizontalScroll(page: Page, where: string): Promise<void> {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll, `${where} scrolls sideways`).toBeLessThanOrEqual(widths.client);
}

describe('the workspace journeys', () => {
  let free: Page;
  let pro: Page;
  let business: Page;

  beforeAll(async () => {
    site = await openSite();
    free = await site.newPage();
    pro = await site.newPage();
    business = await site.newPage();
    await signUp(free, freeUser);
    await signUp(pro, proUser);
    await signUp(business, businessUser);
    await site.server.setTier(proUser, 'pro');
    await site.server.setTier(businessUser, 'business');
  });

  afterAll(async () => {
    await site?.close();
  });

  it('validates a file over 1 MB on the Free dashboard on the device, and downloads the report made there', async () => {
    const page = free;
    const requests: Request[] = [];
    page.on('request', (request) => requests.push(request));
    await page.goto('/dashboard');
    const card = page.getByTestId('on-device-card');
    await card.waitFor();
    expect(await card.textContent()).toContain(
      'apply only to what runs and is stored on our servers',
    );
    expect(await card.textContent()).toContain('1 MB and 500 rows');
    expect(await page.getByTestId('on-device-note').textContent()).toContain(
      'Your file is never uploaded.',
    );

    await buildSchema(page, 'Customers', FIELDS);
    expect(BIG_CSV.length).toBeGreaterThan(1024 * 1024);
    await chooseFile(page, 'customers.csv', BIG_CSV);
    expect(await page.getByTestId('upgrade-dialog').count()).toBe(0);
    requests.length = 0;
    await page.getByRole('button', { name: 'Validate file' }).click();
    await page.getByTestId('summary-stats').waitFor({ timeout: 60_000 });

    const verdict = engineVerdict(webSchemaOf('Customers', FIELDS), Buffer.from(BIG_CSV));
    expect(verdict.errorCount).toBeGreaterThan(10);
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

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download error report' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('error-report-customers.csv');
    // A report made in the page is a blob: URL, not a request to the server.
    expect(download.url()).toMatch(/^blob:/);
    const report = readDownloaded(await download.path());
    expect(report.slice(1).map((r) => [Number(r[0]), r[1], r[2]])).toEqual(
      verdict.errors.map((e) => [e.row, e.field, e.code]),
    );

    // Nothing of the file left the page: no upload, no body carrying its content.
    for (const request of requests) {
      expect(request.url()).not.toContain('/api/validate');
      expect(request.url()).not.toContain('/upload');
      const body = request.postDataBuffer();
      if (body) expect(body.includes(MARKER)).toBe(false);
    }
    expect(requests.filter((r) => r.method() !== 'GET').map((r) => r.url())).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'free-on-device-1280', true);
    page.removeAllListeners('request');
  });

  it('keeps the Validate bar off the drop zone at 1280, and on one line at 390 with toasts clear of it', async () => {
    const page = free;
    await page.setViewportSize(DESKTOP);
    await page.goto('/dashboard');
    await page.getByTestId('start-points').waitFor();
    const bar = page.getByTestId('action-bar');
    const dropzone = page.getByTestId('dropzone');
    // First view: whatever the bar does, it does not cover the drop zone.
    if (await bar.isVisible()) {
      const b = await box(bar);
      if (b.y < DESKTOP.height) expect(overlaps(b, await box(dropzone))).toBe(false);
    }
    await shot(page, 'dashboard-first-view-1280');

    // A long schema: scrolled to its end, the bar is docked on screen.
    await page.getByRole('button', { name: 'Use a starter schema' }).click();
    for (let i = 0; i < 4; i++) await page.getByRole('button', { name: 'Add field' }).click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="action-bar"]')?.getAttribute('data-docked'),
    );
    const atTop = await box(bar);
    expect(overlaps(atTop, await box(dropzone))).toBe(false);
    await page.getByRole('button', { name: 'Add field' }).scrollIntoViewIfNeeded();
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="action-bar"]')?.getAttribute('data-docked') ===
        'true',
    );
    const docked = await box(bar);
    expect(docked.y + docked.height).toBeLessThanOrEqual(DESKTOP.height);
    await shot(page, 'dashboard-docked-1280');

    await page.setViewportSize(PHONE);
    await page.evaluate(() => window.scrollTo(0, 0));
    // At the top of a phone's page the file card runs past the fold: the bar stays in the flow.
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="action-bar"]')?.getAttribute('data-docked') ===
        'false',
    );
    const phoneTop = await box(bar);
    expect(phoneTop.y).toBeGreaterThanOrEqual(PHONE.height);
    await shot(page, 'dashboard-first-view-390');
    // Scrolled down, the docked bar is one line: the file name is not cut and the bar is short.
    await page.getByRole('button', { name: 'Add field' }).scrollIntoViewIfNeeded();
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="action-bar"]')?.getAttribute('data-docked') ===
        'true',
    );
    const phoneBar = await box(bar);
    expect(phoneBar.height).toBeLessThanOrEqual(64);
    expect(phoneBar.height / PHONE.height).toBeLessThan(0.09);
    const name = bar.getByText('No file selected');
    expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(await bar.getByRole('button', { name: 'Validate file' }).isVisible()).toBe(true);

    // A toast shows clear of the bar.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('button', { name: 'Try a sample file' }).click();
    const toast = page.locator('li.toast').filter({ hasText: 'Sample file selected' });
    await toast.waitFor();
    await page.getByRole('button', { name: 'Add field' }).scrollIntoViewIfNeeded();
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="action-bar"]')?.getAttribute('data-docked') ===
        'true',
    );
    expect(overlaps(await box(toast), await box(bar))).toBe(false);
    await shot(page, 'dashboard-docked-toast-390');
    await page.setViewportSize(DESKTOP);
  });

  it('returns focus to the control that opened each dialog', async () => {
    // Free: the locked Save and Load dialogs, closed by Escape and by "Not now".
    await free.goto('/dashboard');
    const save = free.getByRole('button', { name: 'Save schema' });
    await save.focus();
    await free.keyboard.press('Enter');
    const dialog = free.getByTestId('upgrade-dialog');
    await dialog.getByRole('heading', { name: 'Saving schemas is a paid feature' }).waitFor();
    await free.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focusedText(free)).toContain('Save schema');

    const load = free.getByRole('button', { name: 'Load schema' });
    await load.click();
    await dialog
      .getByRole('heading', { name: 'Loading saved schemas is a paid feature' })
      .waitFor();
    await dialog.getByRole('button', { name: 'Not now' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await focusedText(free)).toContain('Load schema');

    // Pro: the saved schemas dialog, opened from the keyboard.
    await pro.goto('/dashboard');
    const proLoad = pro.getByRole('button', { name: 'Load schema' });
    await proLoad.focus();
    await pro.keyboard.press('Enter');
    const saved = pro.getByRole('dialog', { name: 'Load a saved schema' });
    await saved.waitFor();
    await pro.keyboard.press('Escape');
    await saved.waitFor({ state: 'detached' });
    expect(await focusedText(pro)).toContain('Load schema');

    // Pro: the row-limit dialog that a validation opens gives the focus back to Validate.
    await pro.getByRole('button', { name: 'Use a starter schema' }).click();
    const rows = ['customer_id,email,signup_date,plan,monthly_spend'];
    for (let i = 1; i <= 50_001; i++) rows.push(`${i},a${i}@example.com,2024-01-01,pro,1`);
    await chooseFile(pro, 'huge.csv', `${rows.join('\n')}\n`);
    await pro.getByRole('button', { name: 'Validate file' }).focus();
    await pro.keyboard.press('Enter');
    const upgrade = pro.getByTestId('upgrade-dialog');
    await upgrade.getByRole('heading', { name: 'Tier Limit Exceeded' }).waitFor();
    await pro.keyboard.press('Escape');
    await upgrade.waitFor({ state: 'detached' });
    expect(await focusedText(pro)).toContain('Validate file');
  });

  it('opens the side menu with focus on Close, not on Log out', async () => {
    const page = free;
    await page.setViewportSize(PHONE);
    await page.goto('/dashboard');
    const open = page.getByRole('button', { name: 'Open menu' });
    await open.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('dialog', { name: 'Navigation Menu' });
    await menu.waitFor();
    await menu.getByRole('button', { name: 'Log out' }).waitFor();
    await shot(page, 'side-menu-390');
    const focused = await focusedText(page);
    expect(focused).not.toContain('Log out');
    expect(focused).toContain('Close menu');
    // Enter on what has focus closes the menu and keeps the user signed in.
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    expect(await focusedText(page)).toContain('Open menu');
    await page.setViewportSize(DESKTOP);
  });

  it('shows a job posted through the API on the dashboard within 5 s, without a click, above the workspace', async () => {
    const page = business;
    await page.goto('/profile');
    await page.getByLabel('Key name').fill('pipeline');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-api-key').textContent())!.trim();

    await page.goto('/dashboard');
    const jobs = page.getByRole('region', { name: 'API jobs' });
    await jobs.getByText('No jobs yet').waitFor();
    // The pipeline owner finds the jobs above the workspace.
    expect((await box(jobs)).y).toBeLessThan((await box(page.getByTestId('dropzone'))).y);

    const form = new FormData();
    form.append('schema', JOB_SCHEMA);
    form.append('file', new Blob([JOB_CSV], { type: 'text/csv' }), 'nightly-orders.csv');
    const res = await fetch(`${site.server.baseUrl}/api/v1/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    // The list polls (every 2 s while a job is active, 4 s when idle): the job appears in this
    // same document, with no reload and no Refresh.
    await page.evaluate(
      () => ((window as unknown as { sameDocument: boolean }).sameDocument = true),
    );
    expect(res.status).toBe(202);
    await jobs.getByText('nightly-orders.csv').waitFor({ timeout: 30_000 });
    expect(
      await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument),
    ).toBe(true);
    // ...and follows it to its end by itself.
    await jobs.getByText('Completed').waitFor({ timeout: 30_000 });
    await shot(page, 'dashboard-jobs-1280');
  });

  it('does not scroll sideways at 390 on /dashboard and /profile', async () => {
    for (const page of [free, business]) {
      await page.setViewportSize(PHONE);
      for (const route of ['/dashboard', '/profile']) {
        await page.goto(route);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForLoadState('networkidle');
        await noHorizontalScroll(page, `${route} at 390`);
      }
      await page.setViewportSize(DESKTOP);
    }
    await business.setViewportSize(PHONE);
    await business.goto('/dashboard');
    await business.getByRole('region', { name: 'API jobs' }).getByText('Completed').waitFor();
    await shot(business, 'dashboard-business-390', true);
    await business.setViewportSize(DESKTOP);
  });

  it('says the same of the Free plan on the validator, /csv-upload-errors and pricing', async () => {
    const page = await site.newPage();
    const serverOnly = 'apply only to what runs and is stored on our servers';
    for (const [route, name] of [
      ['/csv-validator', 'csv-validator'],
      ['/csv-upload-errors', 'csv-upload-errors'],
      ['/buying-guide', 'buying-guide'],
    ] as const) {
      await page.goto(route);
      expect(await page.textContent('main'), route).toContain(serverOnly);
      expect(await page.textContent('main'), route).toContain('1 MB and 500 rows');
      await shot(page, `${name}-1280`, true);
    }
    await page.goto('/#pricing');
    const pricing = page.locator('#pricing');
    expect(await pricing.textContent()).toContain(
      'Any file size, checked in your browser: files never leave your device',
    );
    expect(await pricing.textContent()).toContain('On our servers: 1 MB and 500 rows');
    await pricing.screenshot({ path: '/tmp/workspace-journeys-pricing-1280.png' });
    await page.setViewportSize(PHONE);
    await page.goto('/csv-upload-errors');
    await shot(page, 'csv-upload-errors-390');
    await page.goto('/buying-guide');
    await page
      .getByRole('heading', { name: 'Compare plans in detail' })
      .locator('xpath=ancestor::section[1]')
      .screenshot({ path: '/tmp/workspace-journeys-buying-guide-table-390.png' });
  });

  it('raised no uncaught page errors', () => {
    expect(site.pageErrors).toEqual([]);
  });
});

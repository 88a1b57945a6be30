import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { seriousAxeFindings } from './support/axe.ts';
import { DESKTOP, PHONE } from './support/browser.ts';
import { openSite, PASSWORD, signIn, signUp, type TestSite } from './support/site.ts';
import { chooseFile, expectToast, screenshot, tableRows } from './support/workspace.ts';

// What a first-time user trips over, checked in Chromium against the real server: the sticky
// Validate bar, the sample file and starter schema, inference on dirty data, the upgrade dialogs
// (each naming the plan's figure and the next tier), plural forms, error-type words, the report's
// name, the low-usage warning and the monthly limit at its edge (the count set in the database),
// the signed-in /auth redirect, the refused reset link, no 401 in a signed-out console, and axe
// with no serious or critical finding on every workspace page at 1280 and 390 px.

const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const freeUser = `pfree_${suffix}`;
const proUser = `ppro_${suffix}`;
const quotaUser = `pquota_${suffix}`;

let site: TestSite;

async function expectNoSeriousAxeFindings(page: Page, where: string): Promise<void> {
  const findings = await seriousAxeFindings(page);
  expect(findings, `axe on ${where}`).toEqual([]);
}

/** Both widths: axe and a screenshot at each, back to desktop after. */
async function auditBothWidths(page: Page, name: string): Promise<void> {
  await expectNoSeriousAxeFindings(page, `${name} at 1280`);
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize(PHONE);
  await expectNoSeriousAxeFindings(page, `${name} at 390`);
  await screenshot(page, `${name}-390`);
  await page.setViewportSize(DESKTOP);
}

const dialog = (page: Page) => page.getByTestId('upgrade-dialog');

async function closeDialog(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await dialog(page).waitFor({ state: 'detached' });
}

describe('the workspace, finished', () => {
  let free: Page;
  let pro: Page;
  let quota: Page;

  beforeAll(async () => {
    site = await openSite({ bypassCSP: true });
    free = await site.newPage();
    pro = await site.newPage();
    quota = await site.newPage();
    await signUp(free, freeUser);
    await signUp(pro, proUser);
    await signUp(quota, quotaUser);
    await site.server.setTier(proUser, 'pro');
    // Free checks on the device and counts nothing (docs/decisions/227): the monthly limit is Pro's.
    await site.server.setTier(quotaUser, 'pro');
  });

  afterAll(async () => {
    await site?.close();
  });

  it('signed-out pages log no failed request; /auth and both validators pass axe', async () => {
    const page = await site.newPage();
    const failures: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && message.text().includes('401')) {
        failures.push(message.text());
      }
    });
    page.on('response', (response) => {
      if (response.status() === 401) failures.push(`${response.status()} ${response.url()}`);
    });
    for (const path of ['/', '/auth', '/csv-validator', '/json-validator']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
    }
    expect(failures).toEqual([]);

    await page.goto('/auth');
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    await auditBothWidths(page, 'polish-auth');
    await page.goto('/csv-validator');
    await page.getByTestId('dropzone').waitFor();
    await auditBothWidths(page, 'polish-csv-validator');
    await page.goto('/json-validator');
    await page.getByTestId('dropzone').waitFor();
    await auditBothWidths(page, 'polish-json-validator');
  });

  it('sends a signed-in user from /auth to /dashboard', async () => {
    await free.goto('/auth');
    await free.waitForURL('**/dashboard');
    await free.getByRole('heading', { name: `Welcome, ${freeUser}` }).waitFor();
  });

  it('shows the invalid-link view when the server refuses a reset link', async () => {
    const page = await site.newPage();
    await page.goto('/reset-password?token=used-or-expired-token');
    await page.getByLabel('New password', { exact: true }).fill('Another-Horse-77!');
    await page.getByLabel('Confirm new password', { exact: true }).fill('Another-Horse-77!');
    await page.getByRole('button', { name: 'Update password' }).click();
    const view = page.getByTestId('invalid-reset-link');
    await view.waitFor();
    expect(await view.textContent()).toContain(
      'This password reset link is invalid or has expired. Please request a new one.',
    );
    expect(await page.getByLabel('New password', { exact: true }).count()).toBe(0);
    // Focus moved to the view that replaced the form.
    expect(await view.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByRole('link', { name: 'Request new reset link' }).waitFor();
    await screenshot(page, 'polish-reset-invalid-1280');
  });

  it('keeps Validate in a sticky bar beside the schema, on desktop and phone', async () => {
    const page = free;
    await page.goto('/dashboard');
    await page.getByTestId('on-device-card').waitFor();
    await page.getByTestId('start-points').waitFor();
    await auditBothWidths(page, 'polish-dashboard-empty');

    await page.getByRole('button', { name: 'Use a starter schema' }).click();
    for (let i = 0; i < 6; i++) await page.getByRole('button', { name: 'Add field' }).click();
    expect(await page.getByLabel('Field name', { exact: true }).count()).toBe(11);
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      // Scrolled to the end of an eleven-field schema, the bar is on screen.
      await page.getByRole('button', { name: 'Add field' }).scrollIntoViewIfNeeded();
      const bar = await page.getByTestId('action-bar').boundingBox();
      expect(bar).not.toBeNull();
      expect(bar!.y).toBeGreaterThanOrEqual(0);
      expect(bar!.y + bar!.height).toBeLessThanOrEqual(viewport.height + 1);
      // ...and at the top of the page it covers nothing of the drop zone (docked only below it).
      await page.evaluate(() => window.scrollTo(0, 0));
      const top = (await page.getByTestId('action-bar').boundingBox())!;
      const zone = (await page.getByTestId('dropzone').boundingBox())!;
      expect(top.y >= zone.y + zone.height || top.y + top.height <= zone.y).toBe(true);
      await page.screenshot({
        path: `artifacts/screenshots/polish-action-bar-${viewport.width}.png`,
      });
    }
    await page.setViewportSize(DESKTOP);
    // By keyboard: from the schema's last button (the Rules section's, under the fields), Validate
    // is two Tab stops away (the file structure options between).
    await chooseFile(page, 'any.csv', 'customer_id\n1\n');
    await page.getByRole('button', { name: 'Add rule' }).focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
    expect(focused).toContain('Validate file');
    await page.reload();
  });

  it('starts from the sample file and starter schema, and shows words, plurals and real dates', async () => {
    const page = free;
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Try a sample file' }).click();
    await page.getByTestId('selected-file-name').waitFor();
    // Focus moved to the file card instead of falling back to the page with the button.
    expect(
      await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''),
    ).toBe('Selected file: sample-customers.csv, 342 Bytes');
    await expectToast(page, 'Sample file selected');
    expect(await page.getByTestId('selected-file-name').textContent()).toBe('sample-customers.csv');
    expect(await page.getByLabel('Field name', { exact: true }).count()).toBe(5);

    await page.getByRole('button', { name: 'Validate file' }).click();
    await page.getByTestId('summary-stats').waitFor();
    await expectToast(page, 'Validation completed with errors', '4 rows have errors.');
    const labels = await page
      .getByRole('heading', { name: 'By error type' })
      .locator('..')
      .locator('li span.truncate')
      .allTextContents();
    expect(labels).toEqual(expect.arrayContaining(['Wrong type or format', 'Duplicate value']));
    expect(labels.filter((label) => /^[a-z_]+$/.test(label))).toEqual([]);
    const rows = await tableRows(page);
    expect(rows.find((r) => r[3] === '2024-02-30')?.[2]).toBe(
      'Not a real date: that day does not exist',
    );
    expect(rows.find((r) => r[3] === '11/04/2024')?.[2]).toBe(
      'Must be a date in the format YYYY-MM-DD',
    );
    // The free plan downloads the report made on the device (docs/decisions/227).
    expect(await page.getByRole('button', { name: 'Full report with Pro' }).count()).toBe(0);
    expect(await page.textContent('main')).toContain('Built on this device');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download error report' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('error-report-sample-customers.csv');
    expect(download.url()).toMatch(/^blob:/);

    // Phones get one card per error, and no table to scroll sideways.
    await page.setViewportSize(PHONE);
    expect(await page.getByTestId('error-cards').isVisible()).toBe(true);
    expect(await page.getByTestId('error-table').isVisible()).toBe(false);
    // Nothing sticks out sideways (named in the failure, innermost first).
    const wide = await page.evaluate((limit) => {
      const sticksOut = (el: Element) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && box.right > limit + 0.5;
      };
      if (!Array.from(document.querySelectorAll('main *')).some(sticksOut)) return [];
      // Name what forces the width: elements wider than their parent's content box.
      return Array.from(document.querySelectorAll('main *'))
        .filter((el) => {
          const parent = el.parentElement;
          if (!parent || el.getClientRects().length === 0 || parent.clientWidth === 0) {
            return false;
          }
          const style = getComputedStyle(parent);
          const inner =
            parent.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          return el.getBoundingClientRect().width > inner + 0.5;
        })
        .slice(-5)
        .map(
          (el) =>
            `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 50)}: ${el.textContent?.slice(0, 40)}`,
        );
    }, PHONE.width);
    expect(wide).toEqual([]);
    await page.setViewportSize(DESKTOP);
    await auditBothWidths(page, 'polish-dashboard-results');

    // One invalid row: singular.
    await page.getByRole('button', { name: 'Remove sample-customers.csv' }).click();
    const one = [
      'customer_id,email,signup_date,plan,monthly_spend',
      '1,a@example.com,2024-01-01,free,1',
      '2,b@example.com,2024-01-02,gold,1',
      '',
    ].join('\n');
    await chooseFile(page, 'one.csv', one);
    await page.getByRole('button', { name: 'Validate file' }).click();
    await expectToast(page, 'Validation completed with errors', '1 row has errors.');
    await page.getByRole('heading', { name: '1 row has errors' }).waitFor();
  });

  it('infers the type most values have and names the values that do not fit', async () => {
    const page = free;
    await page.goto('/dashboard');
    const dirty = ['id,qty', '1,5', '2,7', '3,9', '4,x4', '5,11', '6,13', '7,15', '8,17', ''];
    await chooseFile(page, 'dirty.csv', dirty.join('\n'));
    await page.getByRole('button', { name: 'Infer from file' }).click();
    const note = page.getByTestId('infer-misfits');
    await note.waitFor();
    expect(await page.getByLabel('Type', { exact: true }).nth(1).inputValue()).toBe('integer');
    const text = (await note.textContent()) ?? '';
    expect(text).toContain('1 value in dirty.csv does not fit');
    expect(text).toMatch(/qty \(Integer\): row 5\s*x4/);
    await screenshot(page, 'polish-infer-misfits-1280');
    await page.getByRole('button', { name: 'Validate file' }).click();
    await page.getByTestId('summary-stats').waitFor();
    const rows = await tableRows(page);
    expect(rows.map((r) => [r[0], r[1], r[3]])).toEqual([['5', 'qty', 'x4']]);
  });

  it('writes the date window in the YYYY-MM-DD layout', async () => {
    const page = free;
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByLabel('Type', { exact: true }).selectOption('date');
    const earliest = page.getByLabel('Earliest date');
    expect(await earliest.getAttribute('type')).not.toBe('date');
    const hint = await earliest.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${hint}"]`).textContent()).toBe('YYYY-MM-DD');
  });

  it('says what happened, the plan’s figure and the next tier in each dialog', async () => {
    // The file-size dialog is the paid plans' (Free checks any size on the device).
    await pro.goto('/dashboard');
    await pro.getByTestId('tier-badge').filter({ hasText: 'Pro' }).waitFor();
    await chooseFile(pro, 'big.csv', Buffer.alloc(25 * 1024 * 1024 + 1, 'a'));
    await dialog(pro).getByRole('heading', { name: 'Tier Limit Exceeded' }).waitFor();
    let text = (await dialog(pro).textContent()) ?? '';
    expect(text).toContain(
      'big.csv (25 MB) is larger than the 25 MB file size limit of the Pro plan',
    );
    expect(text).toContain('Business checks files up to 100 MB');
    expect(await dialog(pro).getByRole('link', { name: 'View Plans' }).getAttribute('href')).toBe(
      '/profile?upgrade=business#plans',
    );
    await screenshot(pro, 'polish-dialog-file-size-1280');
    await pro.setViewportSize(PHONE);
    await expectNoSeriousAxeFindings(pro, 'the file-size dialog at 390');
    await screenshot(pro, 'polish-dialog-file-size-390');
    await pro.setViewportSize(DESKTOP);
    await closeDialog(pro);

    const page = free;
    await page.goto('/dashboard');
    await page.getByTestId('tier-badge').waitFor();

    await page.getByRole('button', { name: 'Save schema (paid plans)' }).click();
    text = (await dialog(page).textContent()) ?? '';
    expect(text).toContain('The Free plan cannot save schemas');
    expect(text).toContain('Suggested plan: Pro.');
    await closeDialog(page);
    await page.getByRole('button', { name: 'Load schema (paid plans)' }).click();
    text = (await dialog(page).textContent()) ?? '';
    expect(text).toContain('The Free plan has no saved schemas');
    expect(text).toContain('Suggested plan: Pro.');
    await closeDialog(page);
  });

  it('names Business in a Pro user’s row-limit dialog, and downloads error-report-customers.csv', async () => {
    const page = pro;
    await page.goto('/dashboard');
    await page.getByTestId('tier-badge').filter({ hasText: 'Pro' }).waitFor();
    await page.getByRole('button', { name: 'Use a starter schema' }).click();
    const bad = [
      'customer_id,email,signup_date,plan,monthly_spend',
      '1,a@example.com,2024-01-01,free,1',
      '1,b@example,2024-02-30,gold,-1',
      '',
    ].join('\n');
    await chooseFile(page, 'customers.csv', bad);
    await page.getByRole('button', { name: 'Validate file' }).click();
    await page.getByTestId('summary-stats').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download error report' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('error-report-customers.csv');

    await page.getByRole('button', { name: 'Remove customers.csv' }).click();
    const rows = ['customer_id,email,signup_date,plan,monthly_spend'];
    for (let i = 1; i <= 50_001; i++) rows.push(`${i},a${i}@example.com,2024-01-01,pro,1`);
    await chooseFile(page, 'huge.csv', `${rows.join('\n')}\n`);
    await page.getByRole('button', { name: 'Validate file' }).click();
    await dialog(page).getByRole('heading', { name: 'Tier Limit Exceeded' }).waitFor();
    const text = (await dialog(page).textContent()) ?? '';
    expect(text).toContain('more than the 50,000 rows the Pro plan checks');
    expect(text).toContain('Business checks files with unlimited rows');
    expect(await dialog(page).getByRole('link', { name: 'View Plans' }).getAttribute('href')).toBe(
      '/profile?upgrade=business#plans',
    );
    await closeDialog(page);
  });

  it('warns below 10% remaining, and shows the monthly-limit dialog at the edge', async () => {
    // 499 of Pro's 500 used: one validation left (below 10%), then none.
    await site.server.setUsage(quotaUser, 449);
    const page = quota;
    await page.goto('/dashboard');
    await page.getByTestId('usage').waitFor();
    expect(await page.getByTestId('usage').textContent()).not.toContain('left this month');
    await site.server.setUsage(quotaUser, 499);
    await page.reload();
    await page.getByTestId('usage').waitFor();
    expect(await page.getByTestId('usage').textContent()).toContain(
      'Only 1 validation left this month.',
    );
    await auditBothWidths(page, 'polish-dashboard-low-usage');

    await page.getByRole('button', { name: 'Use a starter schema' }).click();
    const ok =
      'customer_id,email,signup_date,plan,monthly_spend\n1,a@example.com,2024-01-01,free,1\n';
    await chooseFile(page, 'ok.csv', ok);
    await page.getByRole('button', { name: 'Validate file' }).click();
    await expectToast(page, 'Validation successful', 'The 1 row is valid.');
    await page.getByText('You have no validations left this month.').waitFor();

    await page.getByRole('button', { name: 'Validate file' }).click();
    await dialog(page).getByRole('heading', { name: 'Monthly limit reached' }).waitFor();
    const text = (await dialog(page).textContent()) ?? '';
    expect(text).toContain('You have used all 500 validations a month of the Pro plan.');
    expect(text).toMatch(/Your usage resets on 1 [A-Z][a-z]+ \d{4}\./);
    expect(text).toContain('Business includes 50,000 validations a month.');
    await screenshot(page, 'polish-dialog-monthly-1280');
    await page.setViewportSize(PHONE);
    await expectNoSeriousAxeFindings(page, 'the monthly-limit dialog at 390');
    await screenshot(page, 'polish-dialog-monthly-390');
    await page.setViewportSize(DESKTOP);
    await closeDialog(page);
  });

  it('passes axe on /profile', async () => {
    const page = await site.newPage();
    await signIn(page, freeUser, PASSWORD);
    await page.waitForURL('**/dashboard');
    await page.goto('/profile');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    await auditBothWidths(page, 'polish-profile');
  });

  it('raised no uncaught page errors', () => {
    expect(site.pageErrors).toEqual([]);
  });
});

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DESKTOP, PHONE } from './support/browser.ts';
import { openSite, signUp, type TestSite } from './support/site.ts';
import { buildSchema, expectToast, screenshot } from './support/workspace.ts';

// Buying a plan in the browser, on the server's built-in test mode (no Stripe keys): a free user
// hits the file-size dialog, follows View Plans to the suggested plan, pays on the test checkout
// page (a declined card first, then Stripe's 4242 test card), comes back to the payment return
// page and the dashboard, validates the 2 MB file, then cancels and sees the end date.
// Screenshots of the plans, the checkout and the four payment-return states at 1280 and 390 px.

const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

let site: TestSite;
const newPage = (viewport?: typeof PHONE) => site.newPage(viewport);

async function payWith(page: Page, number: string): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Test Buyer');
  await page.getByRole('button', { name: 'Subscribe' }).click();
}

/** From /profile through the test checkout with Stripe's 4242 card, to the return page. */
async function subscribeToPro(page: Page): Promise<void> {
  await page.goto('/profile');
  await page.getByTestId('plan-pro').getByRole('button', { name: 'Upgrade to Pro' }).click();
  await page.waitForURL(/\/test-mode\/checkout\//);
  await payWith(page, '4242 4242 4242 4242');
  await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
}

/** 2 MB of valid rows: over Free's 1 MB, within Pro's 25 MB and 50,000 rows. */
function twoMegabyteCsv(): Buffer {
  const lines = ['id,email,note'];
  let size = 14;
  const note = 'a customer imported from the spring catalogue';
  for (let i = 1; size < 2 * 1024 * 1024; i++) {
    const line = `${i},user${i}@example.com,${note}`;
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(lines.join('\n') + '\n');
}

describe('buying a plan', () => {
  beforeAll(async () => {
    site = await openSite();
  });

  afterAll(async () => {
    await site?.close();
  });

  it('a free user upgrades to Pro from the save-schema dialog and validates the 2 MB file on the server', async () => {
    const page = await newPage();
    const user = `buyer_${suffix}`;
    await signUp(page, user);
    await page.getByTestId('tier-badge').waitFor();
    const file = twoMegabyteCsv();
    // Free checks the 2 MB file on the device (docs/decisions/227); keeping schemas is Pro's.
    await page.getByTestId('dropzone-input').setInputFiles({
      name: 'customers.csv',
      mimeType: 'text/csv',
      buffer: file,
    });
    await page.getByRole('button', { name: 'Save schema (paid plans)' }).click();
    const dialog = page.getByTestId('upgrade-dialog');
    await dialog.getByRole('heading', { name: 'Saving schemas is a paid feature' }).waitFor();
    await dialog.getByRole('link', { name: 'View Plans' }).click();
    await page.waitForURL('**/profile?upgrade=pro#plans');

    const proCard = page.getByTestId('plan-pro');
    await proCard.getByText('Suggested').waitFor();
    expect(await page.getByTestId('current-plan-name').textContent()).toBe('Free');
    expect(await page.textContent('#plans')).toContain('Test mode');
    await screenshot(page, 'billing-profile-plans-1280');

    await proCard.getByRole('button', { name: 'Upgrade to Pro' }).click();
    await page.waitForURL(/\/test-mode\/checkout\/cs_test_/);
    await page.getByText('TEST MODE').first().waitFor();
    expect(await page.textContent('main')).toContain('£12.00');
    await screenshot(page, 'billing-checkout-1280');
    const checkoutUrl = page.url();

    // A declined card: Stripe's message, and the page stays.
    await payWith(page, '4000 0000 0000 0002');
    await page.getByRole('alert').getByText('Your card was declined.').waitFor();
    expect(page.url()).toBe(checkoutUrl);
    await screenshot(page, 'billing-checkout-declined-1280');

    await payWith(page, '4242 4242 4242 4242');
    await page.waitForURL('**/stripe/success?session_id=cs_test_*');
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    expect(await page.getByTestId('payment-status').textContent()).toContain(
      'Your Pro plan is now active.',
    );
    await screenshot(page, 'billing-success-1280');
    await expectToast(page, 'Subscription Activated!', 'Your Pro plan is now active.');
    await page.waitForURL('**/dashboard');

    expect(await page.getByTestId('tier-badge').textContent()).toBe('Pro');
    await buildSchema(page, 'Customers', [
      { name: 'id', type: 'integer', required: true },
      { name: 'email', type: 'email', required: true },
      { name: 'note', type: 'string' },
    ]);
    await page.getByTestId('dropzone-input').setInputFiles({
      name: 'customers.csv',
      mimeType: 'text/csv',
      buffer: file,
    });
    await page.getByRole('button', { name: 'Validate file' }).click();
    await page.getByText('Perfect! No errors found').waitFor({ timeout: 90_000 });
    await expectToast(page, 'Validation successful', 'rows are valid.');
    expect(await page.getByTestId('upgrade-dialog').count()).toBe(0);

    // Cancel: the plan stays until the end of the period, which the profile names.
    await page.goto('/profile');
    expect(await page.getByTestId('current-plan-name').textContent()).toBe('Pro');
    await page.getByRole('button', { name: 'Cancel plan' }).click();
    const confirm = page.getByTestId('plan-change-dialog');
    await confirm.getByRole('button', { name: 'Cancel plan' }).click();
    await expectToast(page, 'Subscription Canceled', 'downgraded to Free');
    const status = await page.getByTestId('plan-status').textContent();
    expect(status).toMatch(/^Your Pro plan ends on \d{1,2} [A-Z][a-z]+ \d{4}\.$/);
    await page.getByRole('button', { name: 'Resume Pro' }).waitFor();
    await screenshot(page, 'billing-profile-cancelled-1280');
  }, 300_000);

  it('shows the payment return page’s four states at 1280 and 390 px', async () => {
    for (const [viewport, width] of [
      [DESKTOP, 1280],
      [PHONE, 390],
    ] as const) {
      const page = await newPage(viewport);
      // Error: no session id.
      await page.goto('/stripe/success');
      await page.getByRole('heading', { name: 'Payment Verification Failed' }).waitFor();
      await page.getByRole('link', { name: 'Go to Profile' }).waitFor();
      await expectToast(page, 'Verification Failed');
      await screenshot(page, `billing-return-error-${width}`);

      // Unauthenticated: a signed-out visitor with a session id.
      await page.goto('/stripe/success?session_id=cs_test_somebody');
      await page.getByRole('heading', { name: 'Please Log In' }).waitFor();
      expect(
        await page
          .getByTestId('payment-status')
          .getByRole('link', { name: 'Sign In' })
          .getAttribute('href'),
      ).toBe('/auth?next=%2Fstripe%2Fsuccess%3Fsession_id%3Dcs_test_somebody');
      // Signed out, nothing is known of the payment: no claim that it succeeded.
      await page.getByText('Signing in will show the state of this payment.').waitFor();
      expect(await page.getByText(/payment was successful/i).count()).toBe(0);
      await expectToast(page, 'Please Log In', 'Sign in to see the state of this payment.');
      await screenshot(page, `billing-return-unauthenticated-${width}`);

      // Loading, then success: a real checkout, with the verification held back a moment.
      const user = `return${width}_${suffix}`;
      await signUp(page, user);
      await page.goto('/profile?upgrade=business#plans');
      await page
        .getByTestId('plan-business')
        .getByRole('button', { name: 'Upgrade to Business' })
        .click();
      await page.waitForURL(/\/test-mode\/checkout\//);
      if (width === 390) await screenshot(page, 'billing-checkout-390');
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/stripe/session/**', async (route) => {
        await held;
        await route.continue();
      });
      await payWith(page, '4242 4242 4242 4242');
      await page.getByRole('heading', { name: 'Processing Your Payment' }).waitFor();
      expect(await page.textContent('main')).toContain(
        'Please wait while we verify your subscription...',
      );
      await screenshot(page, `billing-return-loading-${width}`);
      release();
      await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
      expect(await page.getByTestId('payment-status').textContent()).toContain('Business');
      await screenshot(page, `billing-return-success-${width}`);
      await page.getByRole('button', { name: 'Go to Dashboard' }).click();
      await page.waitForURL('**/dashboard');
      await page.unroute('**/api/stripe/session/**');

      if (width === 390) {
        await page.goto('/profile?upgrade=business#plans');
        await page.getByTestId('current-plan-name').waitFor();
        await screenshot(page, 'billing-profile-plans-390');
      }
    }
  }, 300_000);

  it('switches between paid plans with the price shown first', async () => {
    const page = await newPage();
    await signUp(page, `switch_${suffix}`);
    await subscribeToPro(page);
    await page.goto('/profile');
    await page
      .getByTestId('plan-business')
      .getByRole('button', { name: 'Upgrade to Business' })
      .click();
    const dialog = page.getByTestId('plan-change-dialog');
    const summary = dialog.getByTestId('plan-change-summary');
    await summary.waitFor();
    expect(await summary.textContent()).toMatch(
      /^You will be charged £\d+\.\d\d now for the rest of this billing period, then £39\.00 a month from \d{1,2} [A-Z][a-z]+ \d{4}\.$/,
    );
    await screenshot(page, 'billing-switch-dialog-1280');
    await dialog.getByRole('button', { name: 'Confirm switch to Business' }).click();
    await expectToast(page, 'Subscription updated');
    await page.getByTestId('plan-business').getByText('Current plan').first().waitFor();
    expect(await page.getByTestId('current-plan-name').textContent()).toBe('Business');
  });

  it('a failed renewal shows the past-due banner until the card is fixed on the billing page', async () => {
    const page = await newPage();
    await signUp(page, `renew_${suffix}`);
    await subscribeToPro(page);

    // Manage billing → the test-mode billing page: a card whose charges fail, then a month passes.
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Manage billing' }).click();
    await page.waitForURL(/\/test-mode\/portal\/bps_/);
    await page.getByLabel('Card number').fill('4000 0000 0000 0341');
    await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Update card' }).click();
    await page.getByText('Your card was updated.').waitFor();
    await page.getByRole('button', { name: 'Advance to the end of the period' }).click();
    await page.getByText('past due').first().waitFor();

    await page.goto('/dashboard');
    const banner = page.getByTestId('past-due-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Your last payment for Pro failed');
    expect(await page.getByTestId('tier-badge').textContent()).toBe('Free');
    await screenshot(page, 'billing-past-due-dashboard-1280');

    await banner.getByRole('button', { name: 'Update card' }).click();
    await page.waitForURL(/\/test-mode\/portal\/bps_/);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Update card' }).click();
    await page.getByText('Your card was updated.').waitFor();
    await page.getByRole('link', { name: '← Back to SchemaCheck' }).click();
    await page.waitForURL('**/profile');
    await page.getByTestId('current-plan-name').getByText('Pro').waitFor();
    expect(await page.getByTestId('past-due-banner').count()).toBe(0);
  }, 300_000);

  it('raised no uncaught page errors', () => {
    expect(site.pageErrors).toEqual([]);
  });
});

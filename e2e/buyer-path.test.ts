import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openSite, PASSWORD, signUp, type TestSite } from './support/site.ts';

// The buyer's path and return-to after sign-in (docs/decisions/175), on the server's built-in
// billing test mode: "Choose Pro" signed out opens Create Account, and sign-up goes on to Pro's
// checkout and back as Pro; signed in as a free user, the same button goes straight to checkout;
// a deep link (/profile) comes back after sign-in; a `next` to another site is ignored.

const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

let site: TestSite;

beforeAll(async () => {
  site = await openSite();
});

afterAll(async () => {
  await site?.close();
});

async function payWith4242(page: Page): Promise<void> {
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Test Buyer');
  await page.getByRole('button', { name: 'Subscribe' }).click();
}

async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => 'hydrated' in document.documentElement.dataset);
}

async function signInHere(page: Page, username: string): Promise<void> {
  // Typing before hydration is first-tap.test.ts's subject; these tests are about where sign-in
  // leads.
  await waitForHydration(page);
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

describe('the buyer’s path', () => {
  it('Choose Pro signed out → Create Account → test checkout → Pro', async () => {
    const page = await site.newPage();
    const user = `chooser_${suffix}`;
    await page.goto('/buying-guide');
    await page.getByRole('link', { name: 'Choose Pro: Pro plan' }).click();
    await page.waitForURL('**/auth?tab=register&plan=pro', { waitUntil: 'commit' });
    // Selected once the page has read its query (the pre-rendered HTML is the Sign In tab's).
    await page.getByRole('tab', { name: 'Create Account', selected: true }).waitFor();

    await page.getByLabel('Username', { exact: true }).fill(user);
    await page.getByLabel('Email', { exact: true }).fill(`${user}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account', exact: true }).click();

    await page.waitForURL(/\/test-mode\/checkout\/cs_test_/);
    await payWith4242(page);
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    await page.getByTestId('payment-status').getByText('Your Pro plan is now active.').waitFor();
  });

  it('signed in as a free user, Choose Pro goes straight to checkout', async () => {
    const page = await site.newPage();
    await signUp(page, `freeuser_${suffix}`);
    await page.goto('/buying-guide');
    await page.getByRole('link', { name: 'Choose Pro: Pro plan' }).click();
    await page
      .waitForURL(/\/test-mode\/checkout\/cs_test_/, { timeout: 30_000 })
      .catch(async (error: unknown) => {
        const toasts = await page.getByRole('status').allTextContents();
        throw new Error(`${String(error)}\nat ${page.url()}; toasts: ${toasts.join(' | ')}`);
      });
  });

  it('signing in with Choose Business continues to checkout after sign-in', async () => {
    const page = await site.newPage();
    await page.goto('/auth?tab=register&plan=business');
    await page.getByRole('tab', { name: 'Sign In' }).click();
    await page.waitForURL('**/auth?tab=signin&plan=business');
    await signInHere(page, `freeuser_${suffix}`);
    await page.waitForURL(/\/test-mode\/checkout\/cs_test_/);
  });
});

describe('return-to after sign-in', () => {
  it('a deep link comes back after sign-in', async () => {
    const page = await site.newPage();
    await page.goto('/profile');
    await page.waitForURL('**/auth?next=%2Fprofile');
    await page.getByRole('tab', { name: 'Sign In', selected: true }).waitFor();
    await signInHere(page, `freeuser_${suffix}`);
    await page.waitForURL('**/profile');
    await page.getByRole('heading', { name: 'Profile' }).first().waitFor();
  });

  it('only paths of this site: another origin in `next` goes to the dashboard', async () => {
    const user = `nextuser_${suffix}`;
    await signUp(await site.newPage(), user);
    const page = await site.newPage();
    await page.goto('/auth?next=%2F%2Fevil.example%2Fphish');
    await page.getByRole('tab', { name: 'Sign In', selected: true }).waitFor();
    await signInHere(page, user);
    await page.waitForURL('**/dashboard', { timeout: 30_000 }).catch(async (error: unknown) => {
      const toasts = await page.getByRole('status').allTextContents();
      throw new Error(`${String(error)}\nat ${page.url()}; toasts: ${toasts.join(' | ')}`);
    });
    expect(new URL(page.url()).origin).toBe(new URL(site.server.baseUrl).origin);
  });
});

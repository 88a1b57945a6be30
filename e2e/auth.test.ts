import { FORGOT_PASSWORD_MESSAGE } from '@schemacheck/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DESKTOP, PHONE } from './support/browser.ts';
import { openSite, PASSWORD, signIn, type TestSite } from './support/site.ts';
import { findLink } from './support/smtp.ts';
import { expectToast, screenshot } from './support/workspace.ts';

// The account life cycle in a real browser against the real server: sign up, sign out, sign in by
// email and by username, a wrong password, a password reset through the emailed link, account
// deletion, and the failed sign-in after it. Screenshots of /auth and /profile at desktop and
// phone widths go to artifacts/screenshots/.

const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const username = `e2e_${suffix}`;
const email = `${username}@example.com`;
const newPassword = 'Brand-New-Secret-77?';

let site: TestSite;
let page: Page;
/** Console errors other than the expected failed requests (401s, 403s): CSP reports land here. */
const consoleErrors: string[] = [];

async function logOut(): Promise<void> {
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL('**/auth');
  await expectToast(page, 'Logged out');
}

describe('accounts in the browser', () => {
  beforeAll(async () => {
    site = await openSite();
    page = await site.newPage();
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      if (message.text().startsWith('Failed to load resource')) return;
      consoleErrors.push(message.text());
    });
  });

  afterAll(async () => {
    await site?.close();
  });

  it('shows the 404 page for unknown routes', async () => {
    await page.goto('/no-such-page');
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    expect(await page.textContent('main')).toContain(
      "The page you're looking for doesn't exist or has been moved.",
    );
    expect(await page.title()).toBe('Page Not Found | SchemaCheck');
    await page.getByRole('link', { name: 'Return Home' }).click();
    await page.waitForURL(site.server.baseUrl + '/');
  });

  it('starts every route change at the top of the page', async () => {
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const footerLink = page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' });
    await footerLink.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await footerLink.click();
    await page.getByRole('heading', { name: 'Privacy Policy' }).waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await page.getAttribute('link[rel="canonical"]', 'href')).toBe(
      `${site.server.baseUrl}/privacy`,
    );
  });

  it('signs up with the live password checklist and lands on the dashboard', async () => {
    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Sign In' }).waitFor();
    expect(await page.getAttribute('link[rel="canonical"]', 'href')).toBe(
      `${site.server.baseUrl}/auth`,
    );
    await screenshot(page, 'auth-1280');

    await page.getByRole('tab', { name: 'Create Account' }).click();
    await page.getByLabel('Username', { exact: true }).fill(username);
    await page.getByLabel('Email', { exact: true }).fill(email);
    const checklist = page.locator('#register-password-checklist');
    expect(await checklist.count()).toBe(0); // appears only once a password is typed
    await page.getByLabel('Password', { exact: true }).fill('abc');
    const met = checklist.locator('li[data-met="true"]');
    await expect.poll(() => met.count()).toBe(1);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await expect.poll(() => met.count()).toBe(5);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account', exact: true }).click();

    await page.waitForURL('**/dashboard');
    await expectToast(
      page,
      'Registration successful',
      `Welcome, ${username}! Your account has been created.`,
    );
    await page.getByRole('heading', { name: `Welcome, ${username}` }).waitFor();
  });

  it('logs out, and /dashboard then sends the visitor to /auth, to come back after sign-in', async () => {
    await logOut();
    await page.goto('/dashboard');
    await page.waitForURL('**/auth?next=%2Fdashboard');
  });

  it('signs in by email and by username', async () => {
    await signIn(page, email, PASSWORD);
    await page.waitForURL('**/dashboard');
    await expectToast(page, 'Login successful', `Welcome back, ${username}!`);
    await logOut();

    await signIn(page, username, PASSWORD);
    await page.waitForURL('**/dashboard');
    await expectToast(page, 'Login successful', `Welcome back, ${username}!`);
    await logOut();
  });

  it('refuses a wrong password with a destructive toast', async () => {
    await signIn(page, username, 'Wrong-Password-1!');
    await expectToast(page, 'Login failed', 'Invalid username/email or password');
    expect(new URL(page.url()).pathname).toBe('/auth');
  });

  it('resets the password through the emailed link', async () => {
    await page.goto('/auth');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL('**/forgot-password');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    expect(await page.textContent('main')).toContain(FORGOT_PASSWORD_MESSAGE);

    const message = await site.mail.waitFor((m) => m.to.includes(email));
    const link = findLink(message, /\/reset-password\?token=/);
    expect(link, 'reset link in the mail').toBeTruthy();
    expect(link!.startsWith(`${site.server.baseUrl}/reset-password?token=`)).toBe(true);

    await page.goto(link!);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Update password' }).click();
    await page.getByRole('heading', { name: 'Password reset successful' }).waitFor();
    await page.getByRole('link', { name: 'Sign In' }).click();
    await page.waitForURL('**/auth');

    // The link works once.
    await page.goto(link!);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Update password' }).click();
    // A used link: the invalid-link view replaces the form.
    await page.getByRole('heading', { name: 'Invalid reset link' }).waitFor();
    expect(await page.getByTestId('invalid-reset-link').textContent()).toContain(
      'This password reset link is invalid or has expired. Please request a new one.',
    );

    await signIn(page, email, PASSWORD);
    await expectToast(page, 'Login failed');
    await signIn(page, email, newPassword);
    await page.waitForURL('**/dashboard');
    await expectToast(page, 'Login successful');
  });

  it('shows the profile, and the side menu on a phone', async () => {
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Profile', exact: true }).waitFor();
    const details = await page.textContent('main');
    expect(details).toContain(username);
    expect(details).toContain(email);
    expect(details).toContain('Available plans');
    await screenshot(page, 'profile-1280');

    await page.setViewportSize(PHONE);
    await screenshot(page, 'profile-390');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Navigation Menu' });
    await menu.waitFor();
    expect(await menu.textContent()).toContain(`Signed in as${username}`);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await page.setViewportSize(DESKTOP);
  });

  it('deletes the account after a wrong and then the right password', async () => {
    await page.getByRole('button', { name: 'Delete account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.waitFor();
    const field = dialog.getByLabel('Password', { exact: true });

    await field.fill('Not-My-Password-9!');
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    // A modal dialog makes the page behind it inert, toasts included: the toast shows, and the
    // reason is repeated under the field, which is cleared.
    await expectToast(page, 'Deletion failed', 'Incorrect password', { dismiss: false });
    const error = dialog.locator('#delete-account-password-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('Incorrect password');
    expect(await field.inputValue()).toBe('');
    expect(await field.getAttribute('aria-describedby')).toContain('delete-account-password-error');

    await field.fill(newPassword);
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await page.waitForURL('**/auth');
    await expectToast(page, 'Account Deleted');
  });

  it('cannot sign in to the deleted account', async () => {
    await signIn(page, email, newPassword);
    await expectToast(page, 'Login failed', 'Invalid username/email or password');

    await page.goto('/auth');
    await page.setViewportSize(PHONE);
    await page.getByRole('tab', { name: 'Sign In' }).waitFor();
    await screenshot(page, 'auth-390');
    await page.setViewportSize(DESKTOP);
  });

  it('raised no uncaught errors and no console errors (CSP included) in the page', () => {
    expect(site.pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});

import { mkdirSync } from 'node:fs';
import path from 'node:path';

import { FORGOT_PASSWORD_MESSAGE } from '@schemacheck/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DESKTOP, launchBrowser, PHONE } from './support/browser.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';
import { findLink, startMailCatcher, type MailCatcher } from './support/smtp.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { ensureWebBuild } from './support/web-build.ts';

// The account life cycle in a real browser against the real server: sign up, sign out, sign in by
// email and by username, a wrong password, a password reset through the emailed link, account
// deletion, and the failed sign-in after it. Screenshots of /auth and /profile at desktop and
// phone widths go to artifacts/screenshots/.

const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const username = `e2e_${suffix}`;
const email = `${username}@example.com`;
const password = 'Correct-Horse-42!';
const newPassword = 'Brand-New-Secret-77?';

let mail: MailCatcher;
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];
/** Console errors other than the expected failed requests (401s, 403s): CSP reports land here. */
const consoleErrors: string[] = [];

async function screenshot(name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Waits for a toast with this title and checks its text; then closes it unless told not to. */
async function expectToast(
  title: string,
  description?: string,
  { dismiss = true }: { dismiss?: boolean } = {},
): Promise<void> {
  const toast = page.locator('li.toast').filter({ hasText: title });
  await toast.waitFor({ state: 'visible' });
  if (description !== undefined) expect(await toast.textContent()).toContain(description);
  if (!dismiss) return;
  await toast.getByRole('button', { name: 'Close notification' }).click();
  await toast.waitFor({ state: 'detached' });
}

async function signIn(identifier: string, secret: string): Promise<void> {
  await page.goto('/auth');
  await page.getByLabel('Username or email').fill(identifier);
  await page.getByLabel('Password', { exact: true }).fill(secret);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

async function logOut(): Promise<void> {
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL('**/auth');
  await expectToast('Logged out');
}

describe('accounts in the browser', () => {
  beforeAll(async () => {
    ensureWebBuild();
    mail = await startMailCatcher();
    server = await startServer({ smtpUrl: mail.url });
    browser = await launchBrowser();
    context = await browser.newContext({ baseURL: server.baseUrl, viewport: DESKTOP });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      if (message.text().startsWith('Failed to load resource')) return;
      consoleErrors.push(message.text());
    });
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
    await mail?.close();
  });

  it('shows the 404 page for unknown routes', async () => {
    await page.goto('/no-such-page');
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    expect(await page.textContent('main')).toContain(
      "The page you're looking for doesn't exist or has been moved.",
    );
    expect(await page.title()).toBe('Page Not Found | SchemaCheck');
    await page.getByRole('link', { name: 'Return Home' }).click();
    await page.waitForURL(server.baseUrl + '/');
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
      `${server.baseUrl}/privacy`,
    );
  });

  it('signs up with the live password checklist and lands on the dashboard', async () => {
    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Sign In' }).waitFor();
    expect(await page.getAttribute('link[rel="canonical"]', 'href')).toBe(`${server.baseUrl}/auth`);
    await screenshot('auth-1280');

    await page.getByRole('tab', { name: 'Create Account' }).click();
    await page.getByLabel('Username', { exact: true }).fill(username);
    await page.getByLabel('Email', { exact: true }).fill(email);
    const checklist = page.locator('#register-password-checklist');
    expect(await checklist.count()).toBe(0); // appears only once a password is typed
    await page.getByLabel('Password', { exact: true }).fill('abc');
    expect(await checklist.locator('li[data-met="true"]').count()).toBe(1);
    await page.getByLabel('Password', { exact: true }).fill(password);
    expect(await checklist.locator('li[data-met="true"]').count()).toBe(5);
    await page.getByLabel('Confirm password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Create Account', exact: true }).click();

    await page.waitForURL('**/dashboard');
    await expectToast(
      'Registration successful',
      `Welcome, ${username}! Your account has been created.`,
    );
    await page.getByRole('heading', { name: `Welcome, ${username}` }).waitFor();
  });

  it('logs out, and /dashboard then sends the visitor to /auth', async () => {
    await logOut();
    await page.goto('/dashboard');
    await page.waitForURL('**/auth');
  });

  it('signs in by email and by username', async () => {
    await signIn(email, password);
    await page.waitForURL('**/dashboard');
    await expectToast('Login successful', `Welcome back, ${username}!`);
    await logOut();

    await signIn(username, password);
    await page.waitForURL('**/dashboard');
    await expectToast('Login successful', `Welcome back, ${username}!`);
    await logOut();
  });

  it('refuses a wrong password with a destructive toast', async () => {
    await signIn(username, 'Wrong-Password-1!');
    await expectToast('Login failed', 'Invalid username/email or password');
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

    const message = await mail.waitFor((m) => m.to.includes(email));
    const link = findLink(message, /\/reset-password\?token=/);
    expect(link, 'reset link in the mail').toBeTruthy();
    expect(link!.startsWith(`${server.baseUrl}/reset-password?token=`)).toBe(true);

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

    await signIn(email, password);
    await expectToast('Login failed');
    await signIn(email, newPassword);
    await page.waitForURL('**/dashboard');
    await expectToast('Login successful');
  });

  it('shows the profile, and the side menu on a phone', async () => {
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Profile', exact: true }).waitFor();
    const details = await page.textContent('main');
    expect(details).toContain(username);
    expect(details).toContain(email);
    expect(details).toContain('Available plans');
    await screenshot('profile-1280');

    await page.setViewportSize(PHONE);
    await screenshot('profile-390');
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
    await expectToast('Deletion failed', 'Incorrect password', { dismiss: false });
    const error = dialog.locator('#delete-account-password-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('Incorrect password');
    expect(await field.inputValue()).toBe('');
    expect(await field.getAttribute('aria-describedby')).toContain('delete-account-password-error');

    await field.fill(newPassword);
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await page.waitForURL('**/auth');
    await expectToast('Account Deleted');
  });

  it('cannot sign in to the deleted account', async () => {
    await signIn(email, newPassword);
    await expectToast('Login failed', 'Invalid username/email or password');

    await page.goto('/auth');
    await page.setViewportSize(PHONE);
    await page.getByRole('tab', { name: 'Sign In' }).waitFor();
    await screenshot('auth-390');
    await page.setViewportSize(DESKTOP);
  });

  it('raised no uncaught errors and no console errors (CSP included) in the page', () => {
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});

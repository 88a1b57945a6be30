import type { Browser, BrowserContext, Page } from 'playwright-core';

import { ACTION_TIMEOUT, DESKTOP, launchBrowser, newTestContext, recordToasts } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';
import { startMailCatcher, type MailCatcher } from './smtp.ts';
import { ensureWebBuild } from './web-build.ts';

// One browser test file's world: the web build, a mail catcher, the real server and Chromium,
// pages that record their uncaught errors, and the accounts the tests sign up with.

export const PASSWORD = 'Correct-Horse-42!';

export interface SiteOptions {
  /** Lets a test inject scripts (axe) that the app's Content-Security-Policy would refuse. */
  bypassCSP?: boolean;
  /** Lets pages read and write the clipboard (copy buttons). */
  clipboard?: boolean;
}

export interface TestSite {
  mail: MailCatcher;
  server: RunningServer;
  browser: Browser;
  /** Uncaught errors of every page opened with newPage. */
  pageErrors: string[];
  /** A page in a context of its own; with `signedInAs`, in that page's session (its cookies). */
  newPage(viewport?: typeof DESKTOP, signedInAs?: Page): Promise<Page>;
  close(): Promise<void>;
}

export async function openSite(options: SiteOptions = {}): Promise<TestSite> {
  // WEB_DIST names a build made elsewhere (the server reads it too); otherwise apps/web/dist.
  if (!process.env.WEB_DIST) ensureWebBuild();
  const contexts: BrowserContext[] = [];
  let mail: MailCatcher | undefined;
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    for (const context of contexts.splice(0)) await context.close();
    await browser?.close();
    await server?.stop();
    await mail?.close();
  };
  try {
    mail = await startMailCatcher();
    server = await startServer({ smtpUrl: mail.url });
    browser = await launchBrowser();
  } catch (err) {
    await close();
    throw err;
  }
  const site: TestSite = {
    mail,
    server,
    browser,
    pageErrors: [],
    async newPage(viewport = DESKTOP, signedInAs) {
      const context = options.bypassCSP
        ? await browser.newContext({
            baseURL: server.baseUrl,
            viewport,
            acceptDownloads: true,
            bypassCSP: true,
          })
        : await newTestContext(browser, server.baseUrl, viewport);
      context.setDefaultTimeout(ACTION_TIMEOUT);
      if (options.bypassCSP) await recordToasts(context);
      contexts.push(context);
      if (signedInAs) await context.addCookies(await signedInAs.context().cookies());
      if (options.clipboard) {
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
          origin: server.baseUrl,
        });
      }
      const page = await context.newPage();
      page.on('pageerror', (error) => site.pageErrors.push(error.message));
      actOnceHydrated(page);
      return page;
    },
    close,
  };
  return site;
}

/**
 * Makes the page's goto and reload wait, past the load, for the app to have hydrated: a pre-rendered
 * page is on screen before its handlers are, and what a user does in that moment is
 * first-tap.test.ts's subject (its pages are its own). A call that asks for less than the load
 * (`waitUntil: 'commit'`) is left as it is.
 */
function actOnceHydrated(page: Page): void {
  const hydrated = () =>
    page.waitForFunction(
      () => !document.getElementById('root') || 'hydrated' in document.documentElement.dataset,
    );
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    if (options?.waitUntil !== 'commit') await hydrated();
    return response;
  };
  page.reload = async (options) => {
    const response = await reload(options);
    if (options?.waitUntil !== 'commit') await hydrated();
    return response;
  };
}

/** Creates an account on /auth and waits for its dashboard. */
export async function signUp(page: Page, username: string): Promise<void> {
  await page.goto('/auth?tab=register');
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Email', { exact: true }).fill(`${username}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account', exact: true }).click();
  await page.waitForURL('**/dashboard');
  await page.getByRole('heading', { name: `Welcome, ${username}` }).waitFor();
}

/** Signs in on /auth with a username or an email; the caller waits for what should follow. */
export async function signIn(page: Page, identifier: string, password: string): Promise<void> {
  await page.goto('/auth');
  await page.getByLabel('Username or email').fill(identifier);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

import { chromium, type Browser, type BrowserContext, type Locator } from 'playwright-core';
import { expect } from 'vitest';

/** The viewports the screenshots are taken at. */
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** Debian's Chromium, headless, with nothing that talks to the network on its own. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * How long a browser action or wait may take before it fails. Every wait is on an event or a
 * state, so a passing test takes no longer for it; but a page load and its hydration took more
 * than 15 s with three browser suites and a CI run sharing two cores (load average 16-26).
 */
export const ACTION_TIMEOUT = 45_000;

/** A context on the server under test that accepts downloads and waits up to ACTION_TIMEOUT. */
export async function newTestContext(
  browser: Browser,
  baseURL: string,
  viewport = DESKTOP,
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport, acceptDownloads: true });
  context.setDefaultTimeout(ACTION_TIMEOUT);
  await recordToasts(context);
  return context;
}

/** What recordToasts keeps in each page: the text of every toast shown, not yet expected. */
export interface ToastLog {
  __toasts?: string[];
}

/**
 * Has every page of `context` write down each toast it shows, as it appears. A toast closes
 * itself after five seconds, and on a loaded machine a test can spend that between two looks;
 * expectToast (support/workspace.ts) reads this log first.
 */
export async function recordToasts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const log: string[] = [];
    (window as ToastLog).__toasts = log;
    const seen = new WeakSet<Element>();
    new MutationObserver(() => {
      document.querySelectorAll('li.toast').forEach((toast) => {
        if (seen.has(toast)) return;
        seen.add(toast);
        log.push(toast.textContent ?? '');
      });
    }).observe(document, { subtree: true, childList: true });
  });
}

/**
 * Clicks `control` and waits until it has shown `text`, however briefly. A "Copied!" lasts two
 * seconds, and on a loaded machine a poll from the test (a round trip to the browser each time)
 * can miss all of it: the control itself remembers the text, watched from inside the page.
 * The watch is set before the click, so a tap held until hydration and replayed then is seen too.
 */
export async function clickAndSee(control: Locator, text: string): Promise<void> {
  await watchForText(control, text);
  await control.click();
  await sawText(control, text);
}

/** Makes `element` remember (in `data-text-seen`) that it showed `text`; see clickAndSee. */
export async function watchForText(element: Locator, text: string): Promise<void> {
  await element.evaluate((el, text) => {
    const observer = new MutationObserver(() => {
      if (!el.textContent?.includes(text)) return;
      el.setAttribute('data-text-seen', text);
      observer.disconnect();
    });
    observer.observe(el, { subtree: true, childList: true, characterData: true });
  }, text);
}

/** Waits until `element` shows `text` or has shown it since watchForText. */
export async function sawText(element: Locator, text: string, timeout = ACTION_TIMEOUT) {
  await expect
    .poll(
      () =>
        element.evaluate(
          (el, text) =>
            el.getAttribute('data-text-seen') === text || !!el.textContent?.includes(text),
          text,
        ),
      { timeout, interval: 100 },
    )
    .toBe(true);
}

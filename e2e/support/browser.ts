import { chromium, type Browser, type BrowserContext } from 'playwright-core';

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
  return context;
}

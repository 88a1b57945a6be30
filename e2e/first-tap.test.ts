import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { Browser, Locator, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DESKTOP, launchBrowser, PHONE, sawText, watchForText } from './support/browser.ts';
import { WEB_DIST } from './support/paths.ts';
import { startMailCatcher, type MailCatcher } from './support/smtp.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { ensureWebBuild } from './support/web-build.ts';

// A tap at first paint, before the page's code has loaded, is not lost (issue 27, decision 142):
// every button of a pre-rendered public page, clicked as soon as it shows, with the CPU slowed 4x
// (a phone) and the app's code held back until the click is in, has its effect once the page has
// hydrated: "Copied!", the menu open, the tab chosen, the form checked; a file chooser opens in the
// tap itself (decision 240) and the file chosen in it reaches the app.
// First, the inventory: every control the HTML shows must have a case here, so that a new
// pre-rendered button cannot go untested.

/** What needs the app's code when clicked (as apps/web/src/early-input.ts holds them). */
const CONTROLS =
  '#root button, #root input[type="submit"], #root input[type="button"], #root [role="button"], #root [role="tab"]';

type Effect = (page: Page, control: Locator) => Promise<void>;

interface Case {
  path: string;
  viewport?: typeof PHONE;
  /** The control's accessible name (or role=tab and its name). */
  name: string;
  role?: 'tab';
  /** Click every control of that name (different cards), not only the first. */
  all?: boolean;
  /** Where the name is not enough (the sign-in tab and button share theirs). */
  selector?: string;
  effect?: Effect;
  chooser?: Chooser;
}

// Watched from inside the page before the tap (watchForText): "Copied!" lasts two seconds.
const copied: Effect = async (_page, control) => {
  await sawText(control, 'Copied!', 60_000);
};
const selected: Effect = async (_page, control) => {
  await expect
    .poll(() => control.getAttribute('aria-selected'), { timeout: 60_000, interval: 50 })
    .toBe('true');
};
const invalidField: Effect = async (page) => {
  await page.locator('#root [aria-invalid="true"]').first().waitFor({ timeout: 60_000 });
};
/**
 * A control that opens a file chooser: the chooser must open in the tap itself, before the app's
 * code has run (a browser shows one only within seconds of a gesture, so a click replayed after a
 * slow hydration would open nothing); the file chosen in it then reaches the app once hydrated.
 */
interface Chooser {
  file: { name: string; mimeType: string; buffer: Buffer };
  effect: Effect;
}
const chosenFile: Chooser = {
  file: { name: 'early.csv', mimeType: 'text/csv', buffer: Buffer.from('email\na@example.com\n') },
  effect: async (page) => {
    await expect
      .poll(() => page.getByTestId('selected-file-name').textContent(), { timeout: 60_000 })
      .toBe('early.csv');
  },
};
const importedSchema: Chooser = {
  file: {
    name: 'early-schema.json',
    mimeType: 'application/json',
    buffer: Buffer.from(
      JSON.stringify({ type: 'object', properties: { early_field: { type: 'string' } } }),
    ),
  },
  effect: async (page) => {
    await expect
      .poll(() => page.getByLabel('Field name', { exact: true }).first().inputValue(), {
        timeout: 60_000,
      })
      .toBe('early_field');
  },
};

const CASES: Case[] = [
  { path: '/', viewport: PHONE, name: 'Open menu', effect: menuOpen },
  { path: '/templates', name: 'Copy schema', all: true, effect: copied },
  { path: '/csv-schema-validator', name: 'Copy', effect: copied },
  { path: '/json-schema-validator', name: 'Copy', effect: copied },
  { path: '/validation-api', name: 'Copy', all: true, effect: copied },
  { path: '/api-docs', name: 'Copy', effect: copied },
  { path: '/api-docs', name: 'Python', role: 'tab', effect: selected },
  { path: '/auth', name: 'Create Account', role: 'tab', effect: selected },
  { path: '/auth', name: 'Show password', effect: passwordShown },
  { path: '/auth', name: 'Sign In', selector: '#root button[type="submit"]', effect: invalidField },
  { path: '/forgot-password', name: 'Send reset link', effect: invalidField },
  { path: '/csv-validator', name: 'Add field', effect: fieldAdded },
  { path: '/json-validator', name: 'Add field', effect: fieldAdded },
  { path: '/csv-validator', name: 'Import schema', chooser: importedSchema },
  { path: '/csv-validator', name: 'Drag and drop a file here', chooser: chosenFile },
  { path: '/json-validator', name: 'Import schema', chooser: importedSchema },
  { path: '/json-validator', name: 'Drag and drop a file here', chooser: chosenFile },
];

/** Controls shown everywhere: one case covers them (the header's menu button on a phone). */
const EVERYWHERE = new Set(['Open menu']);
/** Tabs of one group: the case clicks one that is not chosen yet; the others are the same. */
const SAME_AS = new Map([
  ['cURL', 'Python'],
  ['JavaScript', 'Python'],
]);

async function menuOpen(page: Page): Promise<void> {
  await page.getByRole('dialog', { name: 'Navigation Menu' }).waitFor({ timeout: 60_000 });
}

async function passwordShown(page: Page): Promise<void> {
  await expect
    .poll(() => page.locator('#login-password').getAttribute('type'), { timeout: 60_000 })
    .toBe('text');
}

async function fieldAdded(page: Page): Promise<void> {
  await page.getByText('No fields yet').waitFor({ state: 'detached', timeout: 60_000 });
}

/** Holds every script but the ones the HTML itself loads (boot.ts) until `release` is called. */
async function holdAppCode(page: Page, html: string): Promise<() => Promise<void>> {
  const own = new Set(
    [
      ...html.matchAll(
        /<(?:script type="module"[^>]* src|link rel="modulepreload"[^>]* href)="([^"]+)"/g,
      ),
    ].map((m) => m[1]!),
  );
  const held: Route[] = [];
  let released = false;
  await page.route('**/assets/*.js', async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (released || own.has(path)) return route.continue();
    held.push(route);
  });
  return async () => {
    released = true;
    await Promise.all(held.splice(0).map((route) => route.continue()));
  };
}

/** Every pre-rendered page, from the build's own list (prerender.json of the served build). */
function publicPaths(): string[] {
  const dist = process.env.WEB_DIST ?? WEB_DIST;
  const list = JSON.parse(readFileSync(path.join(dist, 'prerender.json'), 'utf8')) as {
    pages: { path: string }[];
  };
  return list.pages.map((p) => p.path);
}

let mail: MailCatcher;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  ensureWebBuild();
  mail = await startMailCatcher();
  server = await startServer({ smtpUrl: mail.url });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mail?.close();
});

describe('the pre-rendered controls', () => {
  it('each one shown before the code loads has a case below', async () => {
    const uncovered: string[] = [];
    for (const viewport of [DESKTOP, PHONE]) {
      // The HTML alone: what shows at first paint.
      const context = await browser.newContext({ javaScriptEnabled: false, viewport });
      const page = await context.newPage();
      for (const path of publicPaths()) {
        await page.goto(`${server.baseUrl}${path}`);
        const names = await page
          .locator(CONTROLS)
          .evaluateAll((elements) =>
            elements
              .filter(
                (e) => (e as HTMLElement).checkVisibility() && !(e as HTMLButtonElement).disabled,
              )
              .map((e) => (e.getAttribute('aria-label') ?? e.textContent ?? '').trim()),
          );
        for (const name of new Set(names)) {
          const covered =
            EVERYWHERE.has(name) ||
            CASES.some(
              (c) => c.path === path && (name.startsWith(c.name) || SAME_AS.get(name) === c.name),
            );
          if (!covered) uncovered.push(`${path} (${viewport.width} px): "${name}"`);
        }
      }
      await context.close();
    }
    expect(uncovered).toEqual([]);
  });

  for (const c of CASES) {
    it(`${c.path}: "${c.name}" clicked at first paint under 4x CPU slowdown works once hydrated`, async () => {
      const context = await browser.newContext({
        baseURL: server.baseUrl,
        viewport: c.viewport ?? DESKTOP,
      });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: server.baseUrl,
      });
      try {
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        const html = await (await page.request.get(c.path)).text();
        const release = await holdAppCode(page, html);
        const chooser = c.chooser ? page.waitForEvent('filechooser', { timeout: 60_000 }) : null;

        await page.goto(c.path, { waitUntil: 'commit' });
        const controls = c.selector
          ? page.locator(c.selector)
          : c.role
            ? page.getByRole('tab', { name: c.name, exact: true })
            : page
                .locator(CONTROLS)
                .filter({ hasText: c.name })
                .or(page.locator(`#root [aria-label^="${c.name}"]`));
        await controls.first().waitFor({ state: 'visible', timeout: 60_000 });
        const targets = c.all ? await controls.all() : [controls.first()];
        // Found again by position, not by name: a copy button's name changes to "Copied!".
        const indexes = await Promise.all(
          targets.map((t) =>
            t.evaluate(
              (el, selector) => Array.from(document.querySelectorAll(selector)).indexOf(el),
              CONTROLS,
            ),
          ),
        );

        if (c.effect === copied) {
          for (const target of targets) await watchForText(target, 'Copied!');
        }
        for (const target of targets) await target.click();
        // The click landed before the app's code ran.
        expect(await page.evaluate(() => 'hydrated' in document.documentElement.dataset)).toBe(
          false,
        );
        // The app's code is still held: a chooser can only have been opened by the tap itself.
        if (chooser) await (await chooser).setFiles(c.chooser!.file);

        await release();
        await page.waitForFunction(() => 'hydrated' in document.documentElement.dataset, null, {
          timeout: 60_000,
        });
        if (c.chooser) await c.chooser.effect(page, controls.first());
        else await Promise.all(indexes.map((i) => c.effect!(page, page.locator(CONTROLS).nth(i))));
      } finally {
        await context.close();
      }
    });
  }
});

describe('text typed before the code loads', () => {
  // (and a <summary> opened before it: it works from the HTML alone, but what it shows is drawn by
  // the app, which must see that it is open; decision 240.)
  // Typing works from the HTML alone, but the form's state is made at hydration: what was typed
  // must reach it, or a held "Send" acts on empty fields (the gap the buyer-path test met).
  async function typeEarly(
    path: string,
    act: (page: Page) => Promise<void>,
    check: (page: Page) => Promise<void>,
  ): Promise<void> {
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: DESKTOP });
    try {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const release = await holdAppCode(page, await (await page.request.get(path)).text());
      await page.goto(path, { waitUntil: 'commit' });
      await act(page);
      expect(await page.evaluate(() => 'hydrated' in document.documentElement.dataset)).toBe(false);
      await release();
      await page.waitForFunction(() => 'hydrated' in document.documentElement.dataset, null, {
        timeout: 60_000,
      });
      await check(page);
    } finally {
      await context.close();
    }
  }

  it('/forgot-password: the e-mail typed and sent early is sent', async () => {
    await typeEarly(
      '/forgot-password',
      async (page) => {
        await page.getByLabel('Email').fill('early@example.com');
        await page.getByRole('button', { name: 'Send reset link' }).click();
      },
      async (page) => {
        // Sent only with a valid address in the form's state; an empty one is marked invalid.
        await page.getByRole('heading', { name: 'Check your email' }).waitFor({ timeout: 60_000 });
        expect(await page.locator('#root [aria-invalid="true"]').count()).toBe(0);
      },
    );
  });

  it('/api-docs/reference: a response opened early shows its schema once hydrated', async () => {
    await typeEarly(
      '/api-docs/reference',
      async (page) => {
        await page
          .locator('#op-validateFile summary')
          .filter({ hasText: /^200/ })
          .click({ timeout: 60_000 });
      },
      async (page) => {
        await page
          .locator('#op-validateFile')
          .getByText('error_count', { exact: true })
          .first()
          .waitFor({ timeout: 60_000 });
      },
    );
  });

  it('/csv-validator: the schema name typed early is kept when "Add field" is replayed', async () => {
    await typeEarly(
      '/csv-validator',
      async (page) => {
        await page.getByLabel('Schema name', { exact: true }).fill('People');
        await page.getByRole('button', { name: 'Add field' }).click();
      },
      async (page) => {
        await page.getByLabel('Field name', { exact: true }).first().waitFor({ timeout: 60_000 });
        await page.getByLabel('Field name', { exact: true }).first().fill('email');
        // The form's own state has the name: the schema it exports is named after it.
        const download = page.waitForEvent('download');
        await page.getByRole('button', { name: 'Export schema' }).click();
        expect((await download).suggestedFilename()).toBe('People.json');
      },
    );
  });

  it('/api-docs/reference#op-validateFile: where the reader scrolled to before hydration is kept', async () => {
    let scrolled = 0;
    await typeEarly(
      '/api-docs/reference#op-validateFile',
      async (page) => {
        await page.locator('#op-validateFile').waitFor({ timeout: 60_000 });
        // The browser has taken the page to its anchor; the reader goes on down from there.
        await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
        scrolled = await page.evaluate(() => {
          window.scrollBy(0, 600);
          return window.scrollY;
        });
      },
      async (page) => {
        expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
      },
    );
  });

  it('/: a page scrolled before hydration is not sent back to its top', async () => {
    let scrolled = 0;
    await typeEarly(
      '/',
      async (page) => {
        await page.locator('footer').waitFor({ state: 'attached', timeout: 60_000 });
        scrolled = await page.evaluate(() => {
          window.scrollBy(0, 900);
          return window.scrollY;
        });
        expect(scrolled).toBeGreaterThan(0);
      },
      async (page) => {
        expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
      },
    );
  });
});

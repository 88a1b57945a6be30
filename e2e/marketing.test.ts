import { PLANS } from '@schemacheck/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { heroExample } from '../apps/web/src/features/marketing/content/engine-examples.ts';
import { findTemplate } from '../apps/web/src/features/marketing/content/templates.ts';
import { ACTION_TIMEOUT, clickAndSee, DESKTOP, launchBrowser, PHONE } from './support/browser.ts';
import { startMailCatcher, type MailCatcher } from './support/smtp.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { ensureWebBuild } from './support/web-build.ts';
import { screenshot, tableRows } from './support/workspace.ts';

// The public site's content in Chromium: the landing page's header anchors scroll to their
// sections (desktop navigation and the phone's side menu), the prices come from the plans module,
// a template is copied to the clipboard and "Use this template" opens the CSV validator with the
// template and its sample file, which validates in the browser with exactly the errors the card
// announces. Screenshots of every content page at 1280 and 390 px (artifacts/screenshots/content-*).

const LANDING_SECTIONS = ['features', 'how-it-works', 'examples', 'use-cases', 'pricing', 'faq'];

const CONTENT_PAGES: Record<string, string> = {
  landing: '/',
  'csv-validator': '/csv-validator',
  'json-validator': '/json-validator',
  'csv-schema-validator': '/csv-schema-validator',
  'json-schema-validator': '/json-schema-validator',
  'validation-api': '/validation-api',
  'csv-upload-errors': '/csv-upload-errors',
  'json-validation-errors': '/json-validation-errors',
  templates: '/templates',
  compare: '/compare',
  industries: '/industries',
  'buying-guide': '/buying-guide',
  help: '/help',
  privacy: '/privacy',
  terms: '/terms',
  'not-found': '/no-such-page',
};

let mail: MailCatcher;
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

/** Top of a section relative to the viewport. */
function sectionTop(id: string): Promise<number> {
  return page.evaluate(
    (sectionId) => document.getElementById(sectionId)?.getBoundingClientRect().top ?? NaN,
    id,
  );
}

/** Waits for smooth scrolling to bring the section just below the sticky header (64 px). */
async function expectScrolledTo(id: string): Promise<void> {
  let last = NaN;
  await expect
    .poll(
      async () => {
        const top = await sectionTop(id);
        // Where smooth scrolling ends, not a frame on its way there: the same top twice.
        const settled = top === last && top >= 0 && top < 100;
        last = top;
        return settled;
      },
      // Smooth scrolling runs on the page's frames: slower on a busy machine.
      { timeout: 30_000, message: `section #${id} at the top` },
    )
    .toBe(true);
}

describe('public site content in the browser', () => {
  beforeAll(async () => {
    ensureWebBuild();
    mail = await startMailCatcher();
    server = await startServer({ smtpUrl: mail.url });
    browser = await launchBrowser();
    context = await browser.newContext({ baseURL: server.baseUrl, viewport: DESKTOP });
    context.setDefaultTimeout(ACTION_TIMEOUT);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: server.baseUrl,
    });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
    await mail?.close();
  });

  it('landing: the hero shows the engine report, prices come from the plans module', async () => {
    await page.goto('/');
    const report = page.getByTestId('hero-report');
    await report.waitFor();
    const text = await report.textContent();
    for (const error of heroExample.errors) expect(text).toContain(error.message);
    expect(text).not.toContain('jane@example ');

    const pricing = page.locator('#pricing');
    for (const plan of [PLANS.pro, PLANS.business]) {
      expect(await pricing.textContent()).toContain(`£${(plan.pricePence ?? 0) / 100}`);
    }
    const sales = pricing.getByRole('link', { name: 'Contact Sales' });
    expect(await sales.getAttribute('href')).toMatch(/^mailto:/);
    // A paid plan's button carries the plan through sign-up to its checkout (decision 175).
    for (const [name, href] of [
      ['Start free: Free plan', '/auth'],
      ['Choose Pro: Pro plan', '/auth?tab=register&plan=pro'],
      ['Choose Business: Business plan', '/auth?tab=register&plan=business'],
    ]) {
      expect(await pricing.getByRole('link', { name }).getAttribute('href')).toBe(href);
    }
    // Signed out, the calls to action lead to /auth.
    expect(
      await page.getByRole('link', { name: 'Start validating for free' }).getAttribute('href'),
    ).toBe('/auth');
  });

  it('landing: each header anchor scrolls its section to the top (desktop)', async () => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const id of LANDING_SECTIONS) {
      await page.evaluate(() => window.scrollTo(0, 0));
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
      const link = nav.locator(`a[href="#${id}"]`);
      expect(await sectionTop(id), id).toBeGreaterThan(300);
      await link.click();
      await expectScrolledTo(id);
    }
  });

  it('landing: the side menu closes and then scrolls to the section (phone)', async () => {
    await page.setViewportSize(PHONE);
    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Navigation Menu' });
    await menu.getByRole('link', { name: 'FAQ' }).click();
    await menu.waitFor({ state: 'detached' });
    await expectScrolledTo('faq');
    await page.setViewportSize(DESKTOP);
  });

  it('templates: copy a schema, then "Use this template" validates its sample file', async () => {
    const template = findTemplate('product-feed');
    if (!template) throw new Error('product-feed template is missing');
    await page.goto('/templates#csv');
    const card = page.getByTestId('template-product-feed');
    await card.waitFor();

    await clickAndSee(card.getByRole('button', { name: 'Copy schema' }), 'Copied!');
    const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as {
      name: string;
      fields: { name: string }[];
    };
    expect(copied.name).toBe(template.schema.name);
    expect(copied.fields.map((f) => f.name)).toEqual(template.schema.fields.map((f) => f.name));

    const sample = await page.request.get(template.sampleUrl);
    expect(sample.status()).toBe(200);

    await card.getByRole('link', { name: `Use this template: ${template.title}` }).click();
    await page.waitForURL('**/csv-validator?template=product-feed');
    await page.getByTestId('template-notice').waitFor();
    const names = page.getByLabel('Field name', { exact: true });
    await expect.poll(() => names.count()).toBe(template.schema.fields.length);
    expect(await names.first().inputValue()).toBe('sku');
    const validate = page.getByRole('button', { name: 'Validate on this device' });
    await expect.poll(() => validate.isEnabled()).toBe(true);
    await validate.click();
    await page.getByTestId('error-table').waitFor();
    const rows = await tableRows(page);
    expect(rows.map((r) => [Number(r[0]), r[1], r[2]])).toEqual(
      template.sampleErrors.map((e) => [e.row, e.field, e.message]),
    );
    await screenshot(page, 'content-template-validated-1280');
  });

  it('every content page renders its heading; screenshots at 1280 and 390 px', async () => {
    for (const [name, route] of Object.entries(CONTENT_PAGES)) {
      for (const viewport of [DESKTOP, PHONE]) {
        await page.setViewportSize(viewport);
        const response = await page.goto(route);
        expect(response?.status(), route).toBe(name === 'not-found' ? 404 : 200);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await screenshot(page, `content-${name}-${viewport.width}`);
      }
    }
    await page.setViewportSize(DESKTOP);
    // Every page, the in-browser validators included, hydrates its pre-rendered HTML without a
    // single error (a mismatch is React's error #418).
    expect(pageErrors).toEqual([]);
  });
});

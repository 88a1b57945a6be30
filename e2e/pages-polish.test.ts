import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { seriousAxeFindings } from './support/axe.ts';
import { DESKTOP, PHONE } from './support/browser.ts';
import { openSite, signUp, type TestSite } from './support/site.ts';
import {
  buildSchema,
  engineVerdict,
  expectToast,
  openProfile,
  webSchemaOf,
  type FieldInput,
} from './support/workspace.ts';

// The public pages and the profile, polished (issue 26): /api-docs light enough to load on a phone
// (its reference on a page of its own), its base URL steady through hydration, nothing cut or
// scrolled sideways at 390 px; the webhook delivery log as cards on phones; help search answering
// under the search box; the header's links at 1024 px; one date format; a keywords meta on every
// page; and axe with no serious or critical finding on every route at 1280 and 390 px.

const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const business = `polish_${suffix}`;

const PUBLIC_ROUTES = [
  '/',
  '/csv-validator',
  '/json-validator',
  '/csv-schema-validator',
  '/json-schema-validator',
  '/validation-api',
  '/csv-upload-errors',
  '/json-validation-errors',
  '/templates',
  '/compare',
  '/industries',
  '/buying-guide',
  '/help',
  '/api-docs',
  '/api-docs/reference',
  '/privacy',
  '/terms',
  '/auth',
  '/forgot-password',
  '/reset-password?token=not-a-real-token',
  '/stripe/success?session_id=cs_test_polish',
  '/no-such-page-here',
];
const SIGNED_IN_ROUTES = [
  '/dashboard',
  '/profile',
  '/stripe/success?session_id=cs_test_polish',
  '/api-docs',
];

/** "1 December 2026" or "1 December 2026, 14:05(:09) UTC": the one family every date is in. */
const LONG_DATE =
  /(?<!\d)\d{1,2} (?:January|February|March|April|May|June|July|August|September|October|November|December) \d{4}\b/;
const DATE_TIME = new RegExp(`${LONG_DATE.source}, \\d{2}:\\d{2}(?::\\d{2})? UTC`);

let site: TestSite;
let receiver: http.Server;
let receiverUrl = '';

/** Waits for what a route shows once its data is in (the signed-in pages load theirs). */
async function settle(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor();
  await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
}

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

describe('the public pages and the profile, polished', () => {
  let signedIn: Page;

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    // the server under test inherits these: a local receiver is allowed
    process.env.WEBHOOK_ALLOW_HTTP = 'true';
    process.env.WEBHOOK_ALLOWED_ADDRESSES = '127.0.0.1';
    site = await openSite({ bypassCSP: true });
    signedIn = await site.newPage();
    await signUp(signedIn, business);
    await site.server.setTier(business, 'business');
  });

  afterAll(async () => {
    await site?.close();
    receiver?.closeAllConnections();
    await new Promise((r) => receiver?.close(r));
  });

  it('/api-docs ships under 150 KB of HTML; every endpoint is one link away on /api-docs/reference', async () => {
    const docs = await (await fetch(`${site.server.baseUrl}/api-docs`)).text();
    expect(Buffer.byteLength(docs)).toBeLessThan(150 * 1024);
    // the base URL is in the HTML as the browser will show it
    expect(docs).toContain(`>${site.server.baseUrl}/api/v1</code>`);
    const reference = await (await fetch(`${site.server.baseUrl}/api-docs/reference`)).text();
    const links = [...docs.matchAll(/href="\/api-docs\/reference#(op-[A-Za-z]+)"/g)].map(
      (m) => m[1]!,
    );
    expect(links.length).toBeGreaterThan(20);
    // the reference itself: responses' schemas are drawn when opened, not written out
    expect(Buffer.byteLength(reference)).toBeLessThan(400 * 1024);
    for (const id of links) expect(reference, id).toContain(`id="${id}"`);
  });

  it('/api-docs at 390 px: no sideways scrolling, the error codes whole, the base URL steady, code boxes reachable by keyboard', async () => {
    const page = await site.newPage(PHONE);
    await page.addInitScript(() => {
      const shifts: number[] = [];
      (window as unknown as { shifts: number[] }).shifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as { value: number }[]) {
          shifts.push(entry.value);
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto('/api-docs');
    await page.getByRole('heading', { name: 'Errors' }).scrollIntoViewIfNeeded();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    const base = page.getByTestId('api-base-url');
    expect(await base.textContent()).toBe(`${site.server.baseUrl}/api/v1`);
    const shifted = await page.evaluate(() =>
      (window as unknown as { shifts: number[] }).shifts.reduce((a, b) => a + b, 0),
    );
    expect(shifted).toBeLessThan(0.01);

    // every error code and its meaning lie inside the screen
    const codes = page.getByTestId('error-codes');
    const boxes = await codes
      .locator('dt, dd')
      .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().right));
    expect(boxes.length).toBeGreaterThan(20);
    for (const right of boxes) expect(right).toBeLessThanOrEqual(390);

    // each scroll box is a tab stop with a name
    const boxesWithoutName = await page
      .locator('pre')
      .evaluateAll(
        (els) => els.filter((el) => el.tabIndex !== 0 || !el.getAttribute('aria-label')).length,
      );
    expect(boxesWithoutName).toBe(0);
    await page.screenshot({ path: '/tmp/pp-api-docs-390.png', fullPage: false });

    // the reference is its own page, as readable on the phone
    await page
      .getByRole('link', { name: /POST \/validate/ })
      .first()
      .click();
    await page.waitForURL('**/api-docs/reference#op-validateFile');
    await page.getByRole('heading', { name: 'Endpoint reference', level: 1 }).waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    // a response's schema is there when opened
    const operation = page.locator('#op-validateFile');
    await operation.locator('summary').filter({ hasText: /^200/ }).click();
    await operation.getByText('error_count', { exact: true }).first().waitFor();
    await page.screenshot({ path: '/tmp/pp-api-reference-390.png' });
  });

  it('help search shows its matches under the search box, with a count, or says none match', async () => {
    const page = await site.newPage(DESKTOP);
    await page.goto('/help');
    const search = page.getByRole('searchbox', { name: 'Search the help center' });
    await search.fill('delete account');
    const status = page.getByRole('status').filter({ hasText: 'delete account' });
    await status.waitFor();
    expect(await status.textContent()).toMatch(/^\d+ questions? match(es)? “delete account”$/);
    const matches = page.getByRole('list', { name: 'Matching questions' });
    const first = matches.getByRole('listitem').first();
    expect(await first.textContent()).toMatch(/delete/i);
    // in view without scrolling: under the box, not in the FAQ below the fold
    expect(await first.evaluate((el) => el.getBoundingClientRect().top < window.innerHeight)).toBe(
      true,
    );
    await page.screenshot({ path: '/tmp/pp-help-1280.png' });

    await search.fill('zebra quantum');
    await page
      .getByRole('status')
      .filter({ hasText: 'No question matches “zebra quantum”' })
      .waitFor();
    expect(await matches.count()).toBe(0);
  });

  it('the header keeps its main links at 1024 px; phones get the menu', async () => {
    const page = await site.newPage({ width: 1024, height: 800 });
    await page.goto('/csv-validator');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['CSV Validator', 'JSON Validator', 'Templates', 'Pricing', 'Help']) {
      expect(await nav.getByRole('link', { name }).isVisible(), name).toBe(true);
    }
    expect(await page.getByRole('link', { name: 'Get Started Free' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(false);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: '/tmp/pp-header-1024.png' });

    const landing = await site.newPage({ width: 1024, height: 800 }, signedIn);
    await landing.goto('/');
    await landing.getByRole('banner').getByRole('link', { name: 'Dashboard' }).waitFor();
    expect(await horizontalOverflow(landing)).toBeLessThanOrEqual(0);
    await landing.screenshot({ path: '/tmp/pp-header-1024-signed-in.png' });

    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Open menu' }).waitFor();
  });

  it('the webhook delivery log is cards on a phone; keys and deliveries share the date format', async () => {
    const page = signedIn;
    await openProfile(page);
    await page.getByLabel('Key name').fill('Dates');
    await page.getByRole('button', { name: 'Create key' }).click();
    const keys = page.getByRole('region', { name: 'API keys' });
    const created = keys.getByText(/Created .* Last used Never/).first();
    await created.waitFor();
    expect(await created.textContent()).toMatch(new RegExp(`Created ${LONG_DATE.source}`));

    const section = page.getByRole('region', { name: 'Webhooks' });
    await section.getByLabel('Endpoint URL').fill(receiverUrl);
    await section.getByRole('button', { name: 'Add webhook' }).click();
    await expectToast(page, 'Webhook added');
    await section.getByRole('button', { name: 'Send test' }).click();
    await expectToast(page, 'Test event queued');
    await section.getByRole('table').getByText('204').waitFor({ timeout: 20_000 });
    expect(await section.getByRole('table').locator('tbody td').first().textContent()).toMatch(
      DATE_TIME,
    );

    await page.setViewportSize(PHONE);
    const cards = section.getByTestId('delivery-cards');
    await cards.getByText('204').waitFor();
    expect(await section.getByRole('table').count()).toBe(0);
    expect(await cards.getByRole('listitem').first().textContent()).toMatch(DATE_TIME);
    expect(
      await cards
        .getByRole('button', { name: /^Redeliver/ })
        .first()
        .isVisible(),
    ).toBe(true);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await cards.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/pp-deliveries-390.png' });
    await page.setViewportSize(DESKTOP);
  });

  it('filter chips count what the other filters leave; the local validator speaks of no upload', async () => {
    const page = await site.newPage(DESKTOP);
    await page.goto('/csv-validator');
    expect(await page.textContent('main')).not.toMatch(/upload a file/i);
    const fields: FieldInput[] = [
      { name: 'price', type: 'number', required: true, minValue: '0' },
      { name: 'stock', type: 'number', required: true, minValue: '0' },
    ];
    const csv = 'price,stock\nfree,1\n,2\n-1,lots\n3,\n-2,-5\n';
    await buildSchema(page, 'Chips', fields);
    await page.getByTestId('dropzone-input').setInputFiles({
      name: 'chips.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await page.getByRole('button', { name: 'Validate on this device' }).click();
    await page.getByTestId('summary-stats').waitFor();

    const { errors } = engineVerdict(webSchemaOf('Chips', fields), Buffer.from(csv));
    const chipCounts = async (testId: string): Promise<Record<string, number>> =>
      Object.fromEntries(
        await page
          .getByTestId(testId)
          .locator('label')
          .evaluateAll((labels) =>
            labels.map((label) => {
              const spans = label.querySelectorAll('span');
              return [spans[0]!.textContent, Number(spans[spans.length - 1]!.textContent)];
            }),
          ),
      );
    const count = (keep: (e: (typeof errors)[number]) => boolean, key: 'field' | 'message') =>
      errors.filter(keep).reduce<Record<string, number>>((acc, e) => {
        acc[e[key]] = (acc[e[key]] ?? 0) + 1;
        return acc;
      }, {});
    expect(await chipCounts('field-filters')).toEqual(count(() => true, 'field'));

    // one message chosen: the column chips count only that message's errors
    const message = errors.find((e) => e.field === 'stock')!.message;
    await page.getByTestId('message-filters').getByText(message, { exact: true }).click();
    const fieldCounts = await chipCounts('field-filters');
    const expected = count((e) => e.message === message, 'field');
    expect(fieldCounts.price ?? 0).toBe(expected.price ?? 0);
    expect(fieldCounts.stock).toBe(expected.stock);
    // and a column chosen too: the message chips count that column's errors
    await page.getByTestId('field-filters').getByText('stock', { exact: true }).click();
    const messageCounts = await chipCounts('message-filters');
    for (const [text, n] of Object.entries(count((e) => e.field === 'stock', 'message'))) {
      expect(messageCounts[text], text).toBe(n);
    }
  });

  it('/auth at 1280x800: Create Account stays above the fold; the 8-character rule is said once', async () => {
    const page = await site.newPage({ width: 1280, height: 800 });
    await page.goto('/auth?tab=register');
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('abc');
    const button = page.getByRole('button', { name: 'Create Account', exact: true });
    const box = (await button.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(800);
    await page.screenshot({ path: '/tmp/pp-auth-1280x800.png' });
    await button.click();
    const form = page.getByRole('form', { name: 'Create account' });
    await form.getByText('Meet each password requirement listed.').waitFor();
    expect((await form.textContent())!.match(/8 characters/g)).toHaveLength(1);
  });

  it('the landing examples show the rejected value and whole patterns', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await site.newPage(viewport);
      await page.goto('/');
      const examples = page.locator('#examples');
      // every record fits its box: the wrong value is on screen without scrolling
      const clipped = await examples
        .locator('pre')
        .evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth).length);
      expect(clipped, `at ${viewport.width}`).toBe(0);
      // a pattern is on one line
      const patterns = examples.getByText(/^pattern \^/);
      expect(await patterns.count()).toBeGreaterThan(0);
      for (const pattern of await patterns.all()) {
        const lines = await pattern.evaluate((el) => el.getClientRects().length);
        expect(lines, (await pattern.textContent()) ?? '').toBe(1);
      }
      await examples.screenshot({ path: `/tmp/pp-examples-${viewport.width}.png` });
    }
  });

  it('moving to Free has one name, Cancel plan', async () => {
    await signedIn.goto('/profile');
    await signedIn.getByRole('heading', { name: 'Available plans' }).waitFor();
    expect(await signedIn.getByText('Downgrade to Free').count()).toBe(0);
  });

  it('every page names its keywords', async () => {
    const page = await site.newPage(DESKTOP);
    for (const route of PUBLIC_ROUTES) {
      await page.goto(route);
      const keywords = await page
        .locator('meta[name="keywords"]')
        .getAttribute('content', { timeout: 5_000 })
        .catch(() => null);
      expect(keywords, route).toMatch(/\w+, \w+/);
    }
    for (const route of SIGNED_IN_ROUTES) {
      await signedIn.goto(route);
      await settle(signedIn);
      expect(
        await signedIn.locator('meta[name="keywords"]').getAttribute('content'),
        route,
      ).toMatch(/\w+, \w+/);
    }
  });

  it('axe finds nothing serious or critical on any route at 1280 and 390 px, signed out and in', async () => {
    const found: Record<string, string[]> = {};
    const audit = async (page: Page, route: string, who: string) => {
      for (const viewport of [DESKTOP, PHONE]) {
        await page.setViewportSize(viewport);
        await page.goto(route);
        await settle(page);
        const findings = await seriousAxeFindings(page);
        if (findings.length) {
          found[`${who} ${route} at ${viewport.width}`] = findings.map(
            (f) => `${f.id}: ${f.help} (${f.targets.join(', ')})`,
          );
        }
      }
    };
    const page = await site.newPage(DESKTOP);
    for (const route of PUBLIC_ROUTES) await audit(page, route, 'signed out');
    for (const route of SIGNED_IN_ROUTES) await audit(signedIn, route, 'signed in');
    await signedIn.setViewportSize(DESKTOP);
    expect(found).toEqual({});
  }, 600_000);
});

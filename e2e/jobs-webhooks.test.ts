import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DESKTOP, PHONE } from './support/browser.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';
import { openSite, signUp, type TestSite } from './support/site.ts';
import { expectToast, openProfile } from './support/workspace.ts';

// A Business user's webhooks in /profile (add with the secret shown once, test event, delivery
// log, the notice of a webhook switched off) and the API jobs on the dashboard, against the real
// server working jobs in-process and a real receiver on 127.0.0.1. Screenshots at 1280 and 390 px.

const user = `hooks_${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

let site: TestSite;
let receiver: http.Server;
let receiverUrl = '';
/** What the receiver answers next. */
let answer = 204;
let received = 0;

const CSV = `id,email,score\n${Array.from({ length: 3000 }, (_, i) =>
  i % 500 === 7 ? `${i},nope,5` : `${i},p${i}@example.com,${i % 100}`,
).join('\n')}\n`;
const SCHEMA = JSON.stringify({
  fileType: 'csv',
  fields: [
    { name: 'id', type: 'integer', required: true },
    { name: 'email', type: 'email', required: true },
    { name: 'score', type: 'number', required: true },
  ],
});

describe('webhooks in /profile and API jobs on the dashboard', () => {
  let page: Page;
  let key = '';

  beforeAll(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received++;
        res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? '' : 'gone');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/schemacheck`;
    // the server under test inherits these: a local receiver is allowed
    process.env.WEBHOOK_ALLOW_HTTP = 'true';
    process.env.WEBHOOK_ALLOWED_ADDRESSES = '127.0.0.1';
    site = await openSite();
    page = await site.newPage();
    await signUp(page, user);
    await site.server.setTier(user, 'business');
  });

  afterAll(async () => {
    await site?.close();
    receiver?.closeAllConnections();
    await new Promise((r) => receiver?.close(r));
  });

  it('adds a webhook (secret shown once), sends a test event and shows the delivery', async () => {
    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'Webhooks' });
    await section.getByText('No webhooks yet').waitFor();
    await section.getByLabel('Endpoint URL').fill('http://10.0.0.1/hook');
    await section.getByRole('button', { name: 'Add webhook' }).click();
    await section.getByText(/This URL cannot receive webhooks/).waitFor();

    await section.getByLabel('Endpoint URL').fill(receiverUrl);
    await section.getByRole('button', { name: 'Add webhook' }).click();
    await expectToast(page, 'Webhook added');
    const secret = (await section.getByTestId('new-webhook-secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await section.getByRole('button', { name: 'Send test' }).click();
    await expectToast(page, 'Test event queued');
    await section.getByRole('table').getByText('204').waitFor({ timeout: 20_000 });
    expect(received).toBe(1);
    await section.screenshot({ path: path.join(SCREENSHOT_DIR, 'webhooks-1280.png') });

    // on a phone, after a reload: the secret is not shown again
    await page.setViewportSize(PHONE);
    await page.reload();
    await section.getByText(receiverUrl).waitFor();
    expect(await page.getByText(secret).count()).toBe(0);
    await section.getByRole('button', { name: 'Deliveries' }).click();
    await section.getByTestId('delivery-cards').getByText('204').waitFor();
    await section.screenshot({ path: path.join(SCREENSHOT_DIR, 'webhooks-390.png') });
    await page.setViewportSize(DESKTOP);
  });

  it('a job sent with an API key shows on the dashboard with its result and report link', async () => {
    await openProfile(page);
    await page.getByLabel('Key name').fill('pipeline');
    await page.getByRole('button', { name: 'Create key' }).click();
    key = (await page.getByTestId('new-api-key').textContent())!.trim();
    const form = new FormData();
    form.append('schema', SCHEMA);
    form.append('file', new Blob([CSV], { type: 'text/csv' }), 'nightly-feed.csv');
    const res = await fetch(`${site.server.baseUrl}/api/v1/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    expect(res.status).toBe(202);

    await page.goto('/dashboard');
    const jobs = page.getByRole('region', { name: 'API jobs' });
    await jobs.getByText('nightly-feed.csv').waitFor();
    await jobs.getByText(/^(Completed|Failed)$/).waitFor({ timeout: 30_000 });
    expect(await jobs.textContent()).toContain('Completed');
    await jobs.getByText(/6 errors in 6 rows/).waitFor();
    const link = jobs.getByRole('link', { name: 'Download the error report of nightly-feed.csv' });
    const download = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download[0].suggestedFilename()).toBe('error-report-nightly-feed.csv');
    await jobs.screenshot({ path: path.join(SCREENSHOT_DIR, 'dashboard-jobs-1280.png') });

    await page.setViewportSize(PHONE);
    await jobs.getByText('Completed').waitFor();
    await jobs.screenshot({ path: path.join(SCREENSHOT_DIR, 'dashboard-jobs-390.png') });
    await page.setViewportSize(DESKTOP);

    // The pipeline is called back (job.completed); the next test must not catch this delivery.
    await expect.poll(() => received, { timeout: 30_000 }).toBe(2);
  });

  it('a webhook answering 410 is switched off, and /profile says so', async () => {
    answer = 410;
    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'Webhooks' });
    await section.getByRole('button', { name: 'Send test' }).click();
    await expectToast(page, 'Test event queued');
    await expect
      .poll(
        async () => {
          await page.reload();
          // Count only once the list has loaded: right after a reload it is still being fetched.
          await section
            .getByText(/^(Active|Disabled)$/)
            .first()
            .waitFor();
          return section.getByText('Disabled', { exact: true }).count();
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toBe(1);
    await section
      .getByRole('alert')
      .getByText(/The endpoint answered 410 Gone/)
      .waitFor();
    await section.screenshot({ path: path.join(SCREENSHOT_DIR, 'webhooks-disabled-1280.png') });
    answer = 204;
    await section.getByRole('button', { name: 'Enable' }).click();
    await expectToast(page, 'Webhook enabled');
    await section.getByText('Active', { exact: true }).waitFor();
    expect(site.pageErrors).toEqual([]);
  });
});

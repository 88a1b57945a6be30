import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  endpointSamples,
  type EndpointSample,
  type SampleLanguage,
} from '../apps/web/src/features/api-docs/samples.ts';
import { clickAndSee, PHONE } from './support/browser.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';
import { openSite, signUp, type TestSite } from './support/site.ts';
import { expectToast, screenshot } from './support/workspace.ts';

// The public API end to end. A Business user creates a key in /profile and copies it; the cURL
// sample of /api-docs, taken from the page, validates a file with that key; the key is revoked
// in /profile and the same call gets 401. Then every sample of the page (cURL with curl, Python
// with python3 and requests, JavaScript with node) runs against the server. Screenshots of
// /api-docs and the API keys section at 1280 and 390 px.

const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const user = `apiuser_${suffix}`;

let site: TestSite;
let workDir: string;

const PRODUCTS_CSV = 'sku,price,email\nABC-0001,9.99,a@example.com\nbad,-1,not-an-email\n';

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: workDir, env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({
          code: error ? ((error as { code?: number }).code ?? 1) : 0,
          stdout: stdout.toString(),
          stderr: stderr.toString(),
        }),
    );
  });
}

/** Runs one sample as its language's user would. */
function runSample(language: SampleLanguage, code: string, env: Record<string, string>) {
  const file = path.join(
    workDir,
    { curl: 'sample.sh', python: 'sample.py', javascript: 'sample.mjs' }[language],
  );
  writeFileSync(file, code);
  if (language === 'curl') return run('sh', ['-e', file], env);
  if (language === 'python') return run('python3', [file], env);
  return run(process.execPath, [file], env);
}

async function createKey(page: Page, name: string): Promise<string> {
  await page.getByLabel('Key name').fill(name);
  await page.getByRole('button', { name: 'Create key' }).click();
  await expectToast(page, 'API key created');
  const key = (await page.getByTestId('new-api-key').textContent())!.trim();
  expect(key).toMatch(/^sc_[0-9A-Za-z]{49}$/);
  return key;
}

describe('the public API from a Business account', () => {
  let page: Page;
  let key = '';
  let schemaId = '';

  beforeAll(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    workDir = mkdtempSync(path.join(os.tmpdir(), 'schemacheck-api-'));
    writeFileSync(path.join(workDir, 'products.csv'), PRODUCTS_CSV);
    // The webhook registration sample points at this machine (the policy refuses it otherwise).
    process.env.WEBHOOK_ALLOW_HTTP = 'true';
    process.env.WEBHOOK_ALLOWED_ADDRESSES = '127.0.0.1';
    site = await openSite({ clipboard: true });
    page = await site.newPage();
    await signUp(page, user);
    await site.server.setTier(user, 'business');
  });

  afterAll(async () => {
    await site?.close();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('creates a key in /profile and copies it', async () => {
    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'API keys' });
    await section.waitFor();
    await section.getByText('No active keys yet').waitFor();

    // a blank name is refused with the form's message
    await page.getByRole('button', { name: 'Create key' }).click();
    await expectToast(page, 'Name required', 'Please enter a name for your API key.');

    key = await createKey(page, 'Nightly import');
    await clickAndSee(page.getByRole('button', { name: 'Copy key' }), 'Copied!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await section.getByText(key.slice(0, 11) + '…').waitFor();
    await section.screenshot({ path: path.join(SCREENSHOT_DIR, 'api-keys-1280.png') });

    const phone = await site.newPage(PHONE, page);
    await phone.goto('/profile');
    const phoneSection = phone.getByRole('region', { name: 'API keys' });
    await phoneSection.getByText('Nightly import').waitFor();
    await phoneSection.screenshot({ path: path.join(SCREENSHOT_DIR, 'api-keys-390.png') });
  });

  it('the cURL sample from /api-docs validates a file with that key; revoked, the same call is 401', async () => {
    // a schema to validate against, made with the key
    const created = await fetch(`${site.server.baseUrl}/api/v1/schemas`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Products',
        type: 'csv',
        rules: {
          columns: [
            { name: 'sku', type: 'string', required: true, pattern: '^[A-Z]{3}-[0-9]{4}$' },
            { name: 'price', type: 'number', required: true, minValue: 0 },
            { name: 'email', type: 'email', required: false },
          ],
        },
      }),
    });
    expect(created.status).toBe(201);
    schemaId = ((await created.json()) as { schema_id: string }).schema_id;

    await page.goto('/api-docs');
    await expect
      .poll(() => page.getByTestId('api-base-url').textContent(), { timeout: 15_000 })
      .toBe(`${site.server.baseUrl}/api/v1`);
    const curl = (await page
      .locator('#validation [data-sample="validateFile"] code[data-language="curl"]')
      .textContent())!;
    expect(curl).toContain(`${site.server.baseUrl}/api/v1/validate`);
    const env = { SCHEMACHECK_API_KEY: key, SCHEMA_ID: schemaId };
    const ok = await run('sh', ['-c', curl], env);
    expect(ok.code, ok.stderr + ok.stdout).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({
      valid: false,
      error_count: 3,
      stats: { rows: 2 },
    });

    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'API keys' });
    await section.getByRole('button', { name: 'Revoke Nightly import' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('This cannot be undone.').waitFor();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await expectToast(page, 'API key revoked');
    await section.getByRole('list', { name: 'Revoked keys' }).getByText('Nightly import').waitFor();

    const refused = await run('sh', ['-c', curl], env);
    expect(refused.code).not.toBe(0);
    expect(JSON.parse(refused.stdout)).toMatchObject({ code: 'invalid_api_key' });
    const status = await fetch(`${site.server.baseUrl}/api/v1/usage`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(status.status).toBe(401);
  });

  it('every sample of /api-docs runs: cURL, Python and JavaScript', async () => {
    await page.goto('/profile');
    key = await createKey(page, 'Samples');
    const base = `${site.server.baseUrl}/api/v1`;
    const samples = endpointSamples(base);
    // the page shows these samples (the cURL tab of each is rendered)
    await page.goto('/api-docs');
    await expect
      .poll(() => page.getByTestId('api-base-url').textContent(), { timeout: 15_000 })
      .toBe(base);
    for (const s of samples) {
      const shown = await page
        .locator(`[data-sample="${s.operationId}"] code[data-language="curl"]`)
        .first()
        .textContent();
      expect(shown, s.operationId).toBe(s.code.curl);
    }
    const byId = (id: string): EndpointSample => samples.find((s) => s.operationId === id)!;
    const order = [
      'createSchema',
      'listSchemas',
      'getSchema',
      'replaceSchema',
      'validateFile',
      'getReport',
      'createJob',
      'getJob',
      'createWebhook',
      'getUsage',
      'deleteSchema',
    ];
    expect(new Set(order)).toEqual(new Set(samples.map((s) => s.operationId)));

    for (const language of ['curl', 'python', 'javascript'] as const) {
      // The webhook sample registers a URL only; nothing listens there (deliveries just fail).
      const env: Record<string, string> = {
        SCHEMACHECK_API_KEY: key,
        WEBHOOK_URL: 'http://127.0.0.1:9/schemacheck-hook',
      };
      for (const id of order) {
        const ran = await runSample(language, byId(id).code[language], env);
        const where = `${language} ${id}: ${ran.stderr}${ran.stdout}`;
        expect(ran.code, where).toBe(0);
        const out = ran.stdout.trim();
        if (id === 'createSchema') {
          env.SCHEMA_ID = language === 'curl' ? JSON.parse(out).schema_id : out;
          expect(env.SCHEMA_ID, where).toMatch(/^[0-9a-f-]{36}$/);
        }
        if (id === 'validateFile') {
          const reportId =
            language === 'curl' ? JSON.parse(out).report_id : out.split(/\s+/).pop()!;
          expect(reportId, where).toMatch(/^[0-9a-f-]{36}$/);
          env.REPORT_ID = reportId;
          if (language === 'curl') expect(JSON.parse(out).error_count).toBe(3);
          else expect(out.split(/\s+/).slice(0, 2).join(' ').toLowerCase()).toBe('false 3');
        }
        if (id === 'getReport') expect(out, where).toContain('3');
        if (id === 'createJob') {
          env.JOB_ID = language === 'curl' ? JSON.parse(out).job_id : out;
          expect(env.JOB_ID, where).toMatch(/^[0-9a-f-]{36}$/);
        }
        if (id === 'getJob') expect(out, where).toMatch(/completed/);
        if (id === 'createWebhook') expect(out, where).toMatch(/whsec_/);
        if (id === 'deleteSchema' && language !== 'curl') expect(out, where).toBe('204');
      }
    }
  });

  it('screenshots of /api-docs at 1280 and 390 px, without page errors', async () => {
    await page.goto('/api-docs');
    await page.getByRole('heading', { name: 'Endpoint reference' }).waitFor();
    await screenshot(page, 'api-docs-1280');
    const phone = await site.newPage(PHONE);
    await phone.goto('/api-docs');
    await phone.getByRole('heading', { name: 'Endpoint reference' }).waitFor();
    await screenshot(phone, 'api-docs-390');
    await page.getByRole('link', { name: 'Try in UI' }).waitFor();
    await page.getByRole('link', { name: 'Upgrade Plan' }).waitFor();
    expect(site.pageErrors).toEqual([]);
  });
});

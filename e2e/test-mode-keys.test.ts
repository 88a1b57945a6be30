import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openSite, signUp, type TestSite } from './support/site.ts';
import { expectToast } from './support/workspace.ts';

// Test-mode API keys in the browser (docs/decisions/174): a Business user creates a test key
// beside a live one in /profile, sees it marked "Test" in the list, and a validation made with it
// says `livemode: false` and leaves the month's count where it was.

const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const user = `testkeys_${suffix}`;

let site: TestSite;
let page: Page;

beforeAll(async () => {
  site = await openSite();
  page = await site.newPage();
  await signUp(page, user);
  await site.server.setTier(user, 'business');
});

afterAll(async () => {
  await site?.close();
});

async function createKey(name: string, mode: 'Live' | 'Test'): Promise<string> {
  await page.getByRole('radio', { name: new RegExp(`^${mode}`) }).check();
  await page.getByLabel('Key name').fill(name);
  await page.getByRole('button', { name: 'Create key' }).click();
  await expectToast(page, 'API key created');
  const panel = page.getByTestId('new-api-key');
  await panel.waitFor();
  const key = (await panel.textContent())!.trim();
  await page.getByRole('button', { name: 'Done' }).click();
  await panel.waitFor({ state: 'detached' });
  return key;
}

async function validate(key: string) {
  const form = new FormData();
  form.append(
    'schema',
    JSON.stringify({ name: 'n', fields: [{ name: 'n', type: 'integer', required: true }] }),
  );
  form.append('file', new Blob(['n\n1\nx\n']), 'n.csv');
  const res = await fetch(`${site.server.baseUrl}/api/v1/validate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { valid: boolean; error_count: number; livemode: boolean };
}

async function used(key: string): Promise<number> {
  const res = await fetch(`${site.server.baseUrl}/api/v1/usage`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return ((await res.json()) as { validations: { used: number } }).validations.used;
}

describe('test-mode API keys in /profile', () => {
  it('are created beside live keys, marked Test, and their results say livemode: false', async () => {
    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'API keys' });
    await section.waitFor();
    await expect(page.getByRole('radio', { name: /^Live/ }).isChecked()).resolves.toBe(true);

    const test = await createKey('CI', 'Test');
    expect(test).toMatch(/^sc_test_[0-9A-Za-z]{49}$/);
    const live = await createKey('Production', 'Live');
    expect(live).toMatch(/^sc_[0-9A-Za-z]{49}$/);

    const keys = section.getByRole('list', { name: 'Active keys' }).getByRole('listitem');
    const ci = keys.filter({ hasText: 'CI' });
    await ci.getByText('Test', { exact: true }).waitFor();
    await expect(ci.textContent()).resolves.toContain(test.slice(0, 16));
    await expect(
      keys.filter({ hasText: 'Production' }).getByText('Test', { exact: true }).count(),
    ).resolves.toBe(0);

    const before = await used(live);
    await expect(validate(test)).resolves.toMatchObject({ valid: false, livemode: false });
    expect(await used(live)).toBe(before);
    await expect(validate(live)).resolves.toMatchObject({ valid: false, livemode: true });
    expect(await used(live)).toBe(before + 1);
  });
});

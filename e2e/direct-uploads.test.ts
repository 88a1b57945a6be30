import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startS3Server, type S3Server } from '../apps/server/test/s3-support.ts';

import { openSite, signUp, type TestSite } from './support/site.ts';
import {
  buildSchema,
  chooseFile,
  engineVerdict,
  summaryFigures,
  webSchemaOf,
  type FieldInput,
} from './support/workspace.ts';

// A Business user's file above the synchronous limit, on a server that stores on S3 (s3rver
// here, with the CORS rule docs/deploy.md asks of a bucket): the browser PUTs its parts straight
// to the bucket's presigned URLs, the progress moves as parts land, and the result is the
// engine's own verdict on the file (docs/decisions/236). The file never goes to /api/validate.

const CORS = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>PUT</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>600</MaxAgeSeconds></CORSRule></CORSConfiguration>`;
const PART = 8 * 1024 * 1024;

const FIELDS: FieldInput[] = [
  { name: 'id', type: 'integer', required: true },
  { name: 'email', type: 'email', required: true },
  { name: 'score', type: 'number', required: true, minValue: '0', maxValue: '100' },
];

/** About `bytes` of CSV for FIELDS, an error every 1000th row. */
function bigCsv(bytes: number): Buffer {
  const lines = ['id,email,score'];
  let size = 0;
  for (let i = 1; size < bytes; i++) {
    const line =
      i % 1000 === 0 ? `${i},not-an-email,${i % 101}` : `${i},person${i}@example.com,${i % 101}`;
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(lines.join('\n') + '\n');
}

const user = `direct_${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
let s3: S3Server;
let s3Origin = '';
let site: TestSite;
let page: Page;

beforeAll(async () => {
  s3 = await startS3Server({ cors: CORS });
  s3Origin = s3.endpoint;
  // The server under test inherits these, and the bucket's key (set by startS3Server).
  Object.assign(process.env, s3.env);
  site = await openSite();
  page = await site.newPage();
  await signUp(page, user);
  await site.server.setTier(user, 'business');
});

afterAll(async () => {
  await site?.close();
  await s3?.close();
});

describe('a large file on a server with S3 storage', () => {
  it('goes from the browser to the bucket in parts, with progress, and gives the engine’s verdict', async () => {
    const file = bigCsv(2 * PART + 1024 * 1024);
    const calls: string[] = [];
    const seen = (r: Request) => {
      const url = new URL(r.url());
      if (url.origin === s3Origin) {
        calls.push(`${r.method()} bucket part ${url.searchParams.get('partNumber')}`);
      } else if (url.pathname.startsWith('/api/jobs') || url.pathname === '/api/validate') {
        calls.push(`${r.method()} ${url.pathname.replace(/[0-9a-f-]{36}/, ':id')}`);
      }
    };
    page.on('request', seen);
    // The last part waits until the progress it leaves behind has been read.
    let releasePart = () => {};
    const partHeld = new Promise<void>((resolve) => (releasePart = resolve));
    await page.route(
      (url) => url.origin === s3Origin && url.searchParams.get('partNumber') === '3',
      async (route) => {
        await partHeld;
        await route.continue();
      },
    );

    await page.goto('/dashboard');
    await page.getByTestId('tier-badge').filter({ hasText: 'Business' }).waitFor();
    await buildSchema(page, 'People', FIELDS);
    await chooseFile(page, 'people.csv', file);
    await page.getByRole('button', { name: 'Validate file' }).click();
    // Parts 1 and 2 have landed, part 3 is held: the progress says so.
    const sent = Math.floor(((2 * PART) / file.length) * 100);
    await page
      .getByTestId('validation-progress')
      .getByText(new RegExp(`^${sent}% of `))
      .waitFor();
    releasePart();

    await page.getByTestId('summary-stats').waitFor({ timeout: 120_000 });
    const verdict = engineVerdict(webSchemaOf('People', FIELDS), file);
    expect(verdict.errorCount).toBeGreaterThan(0);
    expect(await summaryFigures(page)).toEqual([
      verdict.totalRows,
      verdict.validRows,
      verdict.invalidRows,
      verdict.errorCount,
    ]);
    page.off('request', seen);
    const puts = calls.filter((c) => c.includes('bucket')).sort();
    expect(puts).toEqual(['PUT bucket part 1', 'PUT bucket part 2', 'PUT bucket part 3']);
    // The recent jobs list polls GET /api/jobs all along.
    const server = calls.filter((c) => !c.includes('bucket') && c !== 'GET /api/jobs');
    expect(server.slice(0, 2)).toEqual(['POST /api/jobs/uploads', 'POST /api/jobs/:id/complete']);
    expect(server.slice(2).every((c) => c === 'GET /api/jobs/:id')).toBe(true);
    expect(site.pageErrors).toEqual([]);
  }, 240_000);
});

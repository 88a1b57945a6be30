import { describe, expect, it } from 'vitest';
import { BoundaryFreeHash } from '../src/api-v1/body-hash.ts';
import { clientsOf, multipartBody, registerOnTier, testAppForFile, type Part } from './helpers.ts';

// An upload's Idempotency-Key fingerprint covers the file's content (a SHA-256 taken as the body
// streams), not its length: the same key with a different file of the same size is a different
// request (422), while the same form sent again, with a new boundary, replays (docs/decisions/133).

const t = testAppForFile({ env: { API_RATE_LIMIT_PER_MINUTE: '1000' } });
const newClient = clientsOf(t, 63);

async function businessKey(): Promise<string> {
  const web = newClient();
  await registerOnTier(t, web, 'business', 'idem');
  const created = await web.post('/api/api-keys', { name: 'Pipeline' });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().key as string;
}

const SCHEMA = JSON.stringify({
  fields: [{ name: 'code', type: 'string', required: true, validation: { pattern: '^[A-Z]+$' } }],
});

function upload(key: string, idempotencyKey: string, csv: string, url = '/api/v1/validate') {
  const parts: Part[] = [
    { name: 'schema', value: SCHEMA },
    { name: 'file', filename: 'codes.csv', content: csv, contentType: 'text/csv' },
  ];
  const form = multipartBody(parts);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${key}`, 'idempotency-key': idempotencyKey, ...form.headers },
    payload: form.payload,
  });
}

describe('Idempotency-Key on uploads', () => {
  it('refuses a different file of the same size with 422, and replays the same file', async () => {
    const key = await businessKey();
    const first = await upload(key, 'file-1', 'code\nABC\n');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().valid).toBe(true);

    const other = await upload(key, 'file-1', 'code\nab1\n');
    expect(other.statusCode, other.body).toBe(422);
    expect(other.json().code).toBe('idempotency_mismatch');

    const again = await upload(key, 'file-1', 'code\nABC\n');
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
  });

  it('frees a key whose upload was refused before its body was read', async () => {
    const key = await businessKey();
    const refused = await upload(
      key,
      'file-2',
      'code\nABC\n',
      '/api/v1/validate?schema_id=00000000-0000-4000-8000-000000000000',
    );
    expect(refused.statusCode).toBe(404);
    const done = await upload(key, 'file-2', 'code\nABC\n');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.headers['idempotent-replayed']).toBeUndefined();
  });

  it('hashes a body without its boundary, wherever the chunks are cut', () => {
    const digest = (boundary: string, cuts: number[]) => {
      const body = Buffer.from(`--${boundary}\r\nx\r\n--${boundary}--\r\n`);
      const h = new BoundaryFreeHash(Buffer.from(boundary));
      let at = 0;
      for (const cut of [...cuts, body.length]) {
        h.update(body.subarray(at, cut));
        at = cut;
      }
      return h.digest();
    };
    const whole = digest('aaaa', []);
    expect(digest('bbbbbbbb', [])).toBe(whole);
    for (let cut = 1; cut < 20; cut++) expect(digest('bbbbbbbb', [cut, cut + 3])).toBe(whole);
  });
});

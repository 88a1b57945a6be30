import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { clientsOf, registerOnTier, testAppForFile } from './helpers.ts';

// An upload refused before its body is read (413 sync_limit, 404 unknown schema) must reach every
// standard client, Node's own fetch included: the server answers, reads and discards the rest of
// the body, and only then lets the connection go (docs/decisions/130). The fetch client runs in
// its own process, as a customer's pipeline does: sharing this test's event loop with the server
// hides the failure.

const t = testAppForFile({ env: { API_RATE_LIMIT_PER_MINUTE: '1000' } });
const newClient = clientsOf(t, 61);

async function listening(): Promise<{ host: string; port: number; base: string }> {
  let address = t.app.server.address();
  if (!address || typeof address !== 'object') {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    address = t.app.server.address();
  }
  const port = (address as { port: number }).port;
  return { host: '127.0.0.1', port, base: `http://127.0.0.1:${port}` };
}

async function businessKey(): Promise<string> {
  const web = newClient();
  await registerOnTier(t, web, 'business', 'early');
  const created = await web.post('/api/api-keys', { name: 'Pipeline' });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().key as string;
}

/** The published JavaScript sample's way: FormData with a 20 MB file, `times` in a row. */
const FETCH_CLIENT = `
const [url, key, times] = process.argv.slice(1);
const file = new Blob([Buffer.alloc(20 * 1024 * 1024, 'a\\n')]);
const schema = JSON.stringify({ fields: [{ name: 'a', type: 'string', required: false }] });
const answers = [];
for (let i = 0; i < Number(times); i++) {
  const form = new FormData();
  if (!url.includes('schema_id')) form.append('schema', schema);
  form.append('file', file, 'big.csv');
  try {
    const res = await fetch(url, { method: 'POST', headers: { authorization: 'Bearer ' + key }, body: form });
    answers.push(res.status + ' ' + (await res.json()).code);
  } catch (err) {
    answers.push('failed: ' + err.message + ' ' + (err.cause?.code ?? ''));
  }
}
console.log(JSON.stringify(answers));
`;

function fetchInChild(url: string, key: string, times: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', FETCH_CLIENT, url, key, String(times)],
      { maxBuffer: 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${err.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as string[]);
      },
    );
  });
}

describe('early refusals reach every client', () => {
  it("Node's fetch gets the JSON 413 sync_limit for a 20 MB upload, 20 times in a row", async () => {
    const { base } = await listening();
    const answers = await fetchInChild(`${base}/api/v1/validate`, await businessKey(), 20);
    expect(answers).toEqual(Array(20).fill('413 sync_limit'));
  }, 120_000);

  it("Node's fetch gets the 404 of an unknown schema_id before a 20 MB job upload", async () => {
    const { base } = await listening();
    const url = `${base}/api/v1/jobs?schema_id=00000000-0000-4000-8000-000000000000`;
    const answers = await fetchInChild(url, await businessKey(), 3);
    expect(answers).toEqual(Array(3).fill('404 not_found'));
  }, 60_000);

  it('a client that stops sending once it has the answer (as curl does) gets it too', async () => {
    const { host, port } = await listening();
    const key = await businessKey();
    const boundary = 'xyzzy';
    const head =
      `POST /api/v1/validate HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
      `Content-Length: ${20 * 1024 * 1024}\r\n\r\n`;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, host, () => {
        socket.write(head);
        socket.write(Buffer.alloc(64 * 1024, 'a'));
      });
      let text = '';
      socket.on('data', (d: Buffer) => {
        text += d.toString('utf8');
        if (/\r\n\r\n[\s\S]*\}$/.test(text)) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer).toContain('"code":"sync_limit"');
  }, 30_000);
});

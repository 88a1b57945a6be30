import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, STRONG_PASSWORD, tempDir } from './helpers.ts';
import { killServers, signUp, startServer, type Session } from './server-process.ts';

// Shutdown of the real server process (docs/decisions/063): idle keep-alive sockets do not hold
// it up, Ctrl-C under npm (SIGINT twice) is one clean stop, in-flight uploads finish, and a
// later signal forces the exit, which still releases the DATA_DIR lock.

afterEach(killServers);
afterAll(removeTempDirs);

async function startOne() {
  const dataDir = tempDir();
  return { ...(await startServer(dataDir, { VALIDATION_WORKERS: '1' })), dataDir };
}

const newSession = (base: string) => signUp(base, `down${Date.now()}`, STRONG_PASSWORD);

/** An upload whose body is sent in two halves: the second when `finish` is called. */
function halfUpload(base: string, session: Session) {
  const boundary = 'shutdownboundary';
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="schema"\r\n\r\n` +
    JSON.stringify({ fileType: 'csv', fields: [{ name: 'id', type: 'integer', required: true }] }) +
    `\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n` +
    'Content-Type: text/csv\r\n\r\nid\n1\n';
  const tail = `2\n\r\n--${boundary}--\r\n`;
  const url = new URL('/api/validate', base);
  const req = http.request(url, {
    method: 'POST',
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': Buffer.byteLength(head) + Buffer.byteLength(tail),
      cookie: session.cookie,
      'x-csrf-token': session.csrf,
    },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
  req.write(head);
  return { response, finish: () => req.end(tail) };
}

const seconds = (from: number) => (performance.now() - from) / 1000;

describe('shutdown', { timeout: 240_000 }, () => {
  it('does not wait for idle keep-alive sockets', async () => {
    const server = await startOne();
    const agent = new http.Agent({ keepAlive: true });
    const status = await new Promise<number>((resolve, reject) =>
      http
        .get(`${server.url}/healthz`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
        .on('error', reject),
    );
    expect(status).toBe(200);
    const t0 = performance.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(seconds(t0)).toBeLessThan(5);
    agent.destroy();
  });

  it('Ctrl-C under npm (SIGINT twice) is one clean stop that lets an upload finish', async () => {
    const server = await startOne();
    const upload = halfUpload(server.url, await newSession(server.url));
    await new Promise((r) => setTimeout(r, 300));
    server.child.kill('SIGINT');
    server.child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 500));
    expect(server.child.exitCode).toBeNull();
    upload.finish();
    const res = await upload.response;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ totalRows: 2, errorCount: 0 });
    expect(await server.exited).toBe(0);
    expect(existsSync(path.join(server.dataDir, '.lock'))).toBe(false);
  });

  it('a later signal forces the exit, and the lock is still released', async () => {
    const server = await startOne();
    const upload = halfUpload(server.url, await newSession(server.url));
    upload.response.catch(() => {});
    await new Promise((r) => setTimeout(r, 300));
    server.child.kill('SIGTERM');
    // The upload never finishes, so the graceful path waits; a signal after the repeat window
    // forces it.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(server.child.exitCode).toBeNull();
    const t0 = performance.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(1);
    expect(seconds(t0)).toBeLessThan(6);
    expect(server.output()).toContain('Forcing the exit');
    expect(existsSync(path.join(server.dataDir, '.lock'))).toBe(false);
  });
});

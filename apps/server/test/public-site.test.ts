import { gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import compressionPlugin from '../src/plugins/compression.ts';
import { pickEncoding } from '../src/plugins/web.ts';

// The server side of the public site that the browser tests (e2e/public-site.test.ts) cannot
// reach: which responses are compressed, and which request bodies are never inflated. Pages,
// assets, robots.txt and sitemap.xml are checked over real HTTP in the e2e test.

const TEXT = 'row,value\n'.repeat(400);

async function appWithRoutes() {
  const app = Fastify();
  await app.register(compressionPlugin);
  app.get('/json', async () => ({ text: TEXT }));
  app.get('/csv', async (_request, reply) =>
    reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment').send(TEXT),
  );
  app.get('/events', async (_request, reply) => reply.type('text/event-stream').send(TEXT));
  app.get('/small', async () => ({ ok: true }));
  app.post('/echo', async (request) => ({ type: typeof request.body, body: request.body }));
  return app;
}

describe('compression', () => {
  it('compresses JSON with brotli or gzip, as the client accepts', async () => {
    const app = await appWithRoutes();
    const br = await app.inject({ url: '/json', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    const gz = await app.inject({ url: '/json', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const none = await app.inject({ url: '/json' });
    expect(none.headers['content-encoding']).toBeUndefined();
    const small = await app.inject({ url: '/small', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    await app.close();
  });

  it('leaves CSV downloads and event streams as they are written', async () => {
    const app = await appWithRoutes();
    for (const url of ['/csv', '/events']) {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.headers['content-encoding'], url).toBeUndefined();
      expect(res.body, url).toBe(TEXT);
    }
    await app.close();
  });

  it('never inflates a compressed request body', async () => {
    const app = await appWithRoutes();
    const res = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ a: 1 })),
    });
    // Parsed as sent: gzip bytes are not JSON, so the body is refused rather than inflated.
    expect(res.statusCode).toBe(400);
    await app.close();
  });
});

describe('pickEncoding', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(pickEncoding('deflate')).toBeNull();
    expect(pickEncoding('*')).toBe('gzip');
    expect(pickEncoding(undefined)).toBeNull();
    expect(pickEncoding('identity')).toBeNull();
  });
});

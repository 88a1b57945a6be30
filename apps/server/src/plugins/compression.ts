import compress from '@fastify/compress';
import fp from 'fastify-plugin';

// Brotli or gzip for dynamic text responses (JSON, robots.txt, sitemap.xml; docs/decisions/106).
// Pre-rendered pages and the files of the web build arrive already compressed (web.ts).
// - Request bodies are never decompressed: an upload is read as sent, so a small compressed body
//   cannot expand into a huge one behind the size limits.
// - Streams meant to be read as they arrive are left alone: the CSV error report (a download
//   whose progress the browser shows) and event streams. @fastify/compress offers no type to
//   exclude, so this hook, which runs before its per-route one, opts them out with its own
//   `x-no-compression` switch.

const UNCOMPRESSED = /^(?:text\/csv|text\/event-stream)\b/i;

export default fp(
  async (app) => {
    app.addHook('onSend', async (request, reply) => {
      const type = reply.getHeader('content-type');
      if (typeof type === 'string' && UNCOMPRESSED.test(type)) {
        request.headers['x-no-compression'] = '1';
      }
    });
    await app.register(compress, {
      globalDecompression: false,
      encodings: ['br', 'gzip'],
      threshold: 1024,
    });
  },
  { name: 'compression' },
);

import { describe, expect, it } from 'vitest';
import { redactUrl } from '../src/app.ts';
import { LogCapture, testAppForFile } from './helpers.ts';
import { businessUser } from './jobs-support.ts';

// An API key sent in the URL (a client that cannot set headers, a misconfigured tool) must never
// reach the log, whatever the parameter is called (docs/decisions/135). The request id the client
// sent is on every log line of its request, so that support can find it.

const logs = new LogCapture();
const t = testAppForFile({ env: { LOG_LEVEL: 'info' }, deps: { logStream: logs } });

describe('API keys in URLs are redacted in the log', () => {
  it('?x=, ?access_token=, ?api-key=, a path segment and an encoded key are all redacted', async () => {
    const { key } = await businessUser(t, 182, 'redact');
    const body = key.slice(3);
    const urls = [
      `/api/v1/usage?x=${key}`,
      `/api/v1/usage?access_token=${key}`,
      `/api/v1/usage?api-key=${key}&page=2`,
      `/api/v1/usage?auth=Bearer%20${key}`,
      `/api/v1/schemas/${key}`,
      `/api/v1/usage?k=sc%5F${body}`,
    ];
    for (const url of urls) {
      await t.app.inject({
        method: 'GET',
        url,
        headers: { 'x-request-id': 'redaction-test' },
      });
    }
    expect(logs.text).toContain('redaction-test');
    expect(logs.text).toContain('sc_[redacted]');
    expect(logs.text).not.toContain(body.slice(0, 20));
    // The rest of the URL stays readable.
    expect(logs.text).toContain('/api/v1/usage?api-key=sc_[redacted]&page=2');
    // Every line of those requests carries the client's request id.
    const lines = logs.lines.map((l) => JSON.parse(l) as { reqId?: string; req?: { url: string } });
    const ours = lines.filter((l) => l.req?.url.startsWith('/api/v1/'));
    expect(ours.length).toBeGreaterThanOrEqual(urls.length);
    expect(ours.every((l) => l.reqId === 'redaction-test')).toBe(true);
  });

  it('words that merely contain sc_ are left alone', () => {
    expect(redactUrl('/help/disc_abcdefgh?q=misc_settings')).toBe(
      '/help/disc_abcdefgh?q=misc_settings',
    );
    expect(redactUrl('/x?y=sc_abc')).toBe('/x?y=sc_abc');
    expect(redactUrl('/x?y=sc_abcdef12')).toBe('/x?y=sc_[redacted]');
  });
});

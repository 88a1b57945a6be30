import type { AddressInfo } from 'node:net';

import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string[];
  raw: string;
}

export interface MailCatcher {
  /** smtp://127.0.0.1:<port>, for the server's SMTP_URL. */
  url: string;
  messages: CapturedMail[];
  /** Resolves with the first message (already received or still to come) that matches. */
  waitFor(match: (mail: CapturedMail) => boolean, timeoutMs?: number): Promise<CapturedMail>;
  close(): Promise<void>;
}

/** A local SMTP server that accepts every message and keeps it, so a test can read its mail. */
export async function startMailCatcher(): Promise<MailCatcher> {
  const messages: CapturedMail[] = [];
  const waiters = new Set<() => void>();

  const server = new SMTPServer({
    // Plain SMTP on loopback: no TLS to negotiate, no credentials to check.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(match, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (!found) return false;
          cleanup();
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(`No matching mail within ${timeoutMs} ms (${messages.length} received)`),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(wake);
        };
        const wake = () => void check();
        if (!check()) waiters.add(wake);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Undo quoted-printable soft breaks and escapes, so that links split over lines read whole. */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The decoded text of every base64 body part of a raw message. */
function base64Parts(raw: string): string[] {
  const parts: string[] = [];
  const re =
    /Content-Transfer-Encoding:\s*base64\s*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/gi;
  for (const match of raw.matchAll(re)) {
    parts.push(Buffer.from((match[1] ?? '').replace(/\s+/g, ''), 'base64').toString('utf8'));
  }
  return parts;
}

/** The first URL in the message that matches `pattern`, whatever transfer encoding was used. */
export function findLink(mail: CapturedMail, pattern: RegExp): string | null {
  for (const text of [mail.raw, decodeQuotedPrintable(mail.raw), ...base64Parts(mail.raw)]) {
    for (const candidate of text.match(/https?:\/\/[^\s"'<>]+/g) ?? []) {
      const url = candidate.replace(/&amp;/g, '&').replace(/[.,;)\]]+$/, '');
      if (pattern.test(url)) return url;
    }
  }
  return null;
}

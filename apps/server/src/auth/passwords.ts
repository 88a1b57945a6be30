import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { PasswordHashConfig } from '../config.ts';

// Password storage: scrypt (docs/decisions/013). Stored in PHC string form,
//   $scrypt$ln=17,r=8,p=1$<salt, base64>$<hash, base64>
// so that salt and cost travel with the hash and older hashes are recognised and upgraded at the
// next sign-in. Passwords are NFC-normalised (the same password typed on two keyboards matches)
// and never truncated.

const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Hashes computed at once. Each takes 128 MiB at N=2^17, r=8; more would only queue in libuv. */
const MAX_CONCURRENT = 2;

interface ParsedHash {
  logN: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

function derive(password: string, salt: Buffer, params: PasswordHashConfig, keylen: number) {
  const N = 2 ** params.logN;
  const options: ScryptOptions = {
    N,
    r: params.r,
    p: params.p,
    // Node's default maxmem (32 MiB) rejects N=2^17, r=8 (ERR_CRYPTO_INVALID_SCRYPT_PARAMS): scrypt needs
    // 128·N·r bytes (128 MiB), so allow twice that.
    maxmem: Math.max(32 * 1024 * 1024, 256 * N * params.r),
  };
  return limit(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(password.normalize('NFC'), salt, keylen, options, (err, key) =>
          err ? reject(err) : resolve(key),
        );
      }),
  );
}

export async function hashPassword(password: string, params: PasswordHashConfig): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, params, KEY_BYTES);
  return `$scrypt$ln=${params.logN},r=${params.r},p=${params.p}$${b64(salt)}$${b64(hash)}`;
}

/** False for a wrong password and for a stored value this module cannot read. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parsed = parseHash(encoded);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed, parsed.hash.length);
  return timingSafeEqual(candidate, parsed.hash);
}

/** True when the stored hash was made with other (older) parameters than the configured ones. */
export function needsRehash(encoded: string, params: PasswordHashConfig): boolean {
  const parsed = parseHash(encoded);
  return (
    !parsed ||
    parsed.logN !== params.logN ||
    parsed.r !== params.r ||
    parsed.p !== params.p ||
    parsed.salt.length < SALT_BYTES ||
    parsed.hash.length < KEY_BYTES
  );
}

export function parseHash(encoded: string): ParsedHash | null {
  const m =
    /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(
      encoded,
    );
  if (!m) return null;
  const [, logN, r, p, salt, hash] = m;
  const parsed = {
    logN: Number(logN),
    r: Number(r),
    p: Number(p),
    salt: Buffer.from(salt!, 'base64'),
    hash: Buffer.from(hash!, 'base64'),
  };
  if (parsed.logN < 1 || parsed.logN > 24 || parsed.r < 1 || parsed.p < 1) return null;
  if (parsed.hash.length < 16) return null;
  return parsed;
}

const dummyHashes = new Map<string, Promise<string>>();

/**
 * A hash with the configured parameters of a password nobody knows. Sign-in checks it for an
 * unknown account so that "no such user" takes as long as "wrong password".
 */
export function dummyHash(params: PasswordHashConfig): Promise<string> {
  const key = `${params.logN},${params.r},${params.p}`;
  let hash = dummyHashes.get(key);
  if (!hash) {
    hash = hashPassword(randomBytes(16).toString('hex'), params);
    dummyHashes.set(key, hash);
  }
  return hash;
}

function b64(buf: Buffer): string {
  return buf.toString('base64').replace(/=+$/, '');
}

let running = 0;
const waiting: Array<() => void> = [];

async function limit<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

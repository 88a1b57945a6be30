import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random token of `bytes` bytes (default 256 bits), base64url without padding. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function hmacBase64url(key: string | Buffer, value: string): string {
  return createHmac('sha256', key).update(value, 'utf8').digest('base64url');
}

/** A key for one purpose derived from the one secret, so that purposes never share a key. */
export function deriveKey(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`schemacheck:${purpose}`).digest();
}

/**
 * Constant-time string comparison of any two inputs. `timingSafeEqual` throws on unequal lengths
 * (ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH), so both sides are hashed to fixed-length digests first.
 */
export function safeEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a, 'utf8').digest();
  const db = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(da, db);
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { releaseValidation, reserveOrRefuse, type Reservation } from './quota.ts';
import { ValidationAborted } from './service.ts';
import { SCHEMA_FIELD_MAX } from './upload-form.ts';

// The HTTP side every upload route shares (the web upload, POST /api/v1/validate and
// POST /api/v1/jobs): refusing before the body is read, the signal of a client that went away,
// and the month's validation, reserved before the body is read and given back unless the upload
// completes.

/** Multipart boundaries, part headers and small fields around the file. */
const MULTIPART_SLACK = 64 * 1024;

/**
 * How much of a refused body is read and thrown away so that the client sees the answer. A client
 * that is still sending when the connection closes gets EPIPE or ECONNRESET, and Node's fetch
 * then reports "fetch failed" instead of the answer that had already arrived. Beyond this bound
 * the connection is closed anyway: holding it for an endless body would cost more than the
 * answer is worth. See docs/decisions/130.
 */
export const DRAIN_MAX_BYTES = 256 * 1024 * 1024;

const draining = new WeakSet<object>();

/**
 * A refusal before the body was read: stop parsing it, read and discard the rest (up to
 * DRAIN_MAX_BYTES), so the answer reaches the client; the connection stays open for the next
 * request once the body has ended, as after any other answer.
 */
export function stopReading(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw;
  if (raw.complete || draining.has(raw)) return;
  draining.add(raw);
  raw.unpipe();
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > DRAIN_MAX_BYTES) {
    // Too much to wait for: close after the answer, as a client with a huge body expects.
    reply.header('connection', 'close');
    raw.resume();
    return;
  }
  let left = DRAIN_MAX_BYTES;
  raw.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) raw.socket?.destroy();
  });
  raw.resume();
}

/** Refuses at once a body whose declared length cannot fit the file limit and the form. */
export function refuseDeclaredOverLimit(
  request: FastifyRequest,
  reply: FastifyReply,
  maxFileBytes: number | null,
  tooLarge: (limit: number) => Error,
): void {
  const declared = Number(request.headers['content-length']);
  if (
    maxFileBytes !== null &&
    Number.isFinite(declared) &&
    declared > maxFileBytes + SCHEMA_FIELD_MAX + MULTIPART_SLACK
  ) {
    stopReading(request, reply);
    throw tooLarge(maxFileBytes);
  }
}

export interface ReservedUploadOptions {
  app: FastifyInstance;
  request: FastifyRequest;
  reply: FastifyReply;
  userId: string;
  monthlyValidations: number | null;
  /**
   * False for a test-mode API key (docs/decisions/174): nothing is reserved or counted, and
   * `upload` gets a null reservation.
   */
  countsAgainstQuota?: boolean;
  /** Undoes what a failed upload left behind, before the reserved unit is given back. */
  cleanUp?: () => Promise<void>;
}

/**
 * Reserves one validation of the month and calls `upload` with a signal that aborts when the
 * connection closes before the body ended (light-my-request has no `complete`). Unless `upload`
 * returns, the unit is given back; a refusal stops reading the body, and an abort is a 400.
 */
export async function withReservedUpload<T>(
  o: ReservedUploadOptions,
  upload: (signal: AbortSignal, reservation: Reservation | null) => Promise<T>,
): Promise<T> {
  const { app, request, reply } = o;
  const abort = new AbortController();
  let ended = false;
  const onEnd = () => (ended = true);
  const onClose = () => {
    if (!ended && !request.raw.complete) abort.abort();
  };
  request.raw.on('end', onEnd);
  request.raw.on('close', onClose);
  let reservation: Reservation | null = null;
  let completed = false;
  try {
    if (o.countsAgainstQuota !== false)
      reservation = await reserveOrRefuse(app.db, o.userId, o.monthlyValidations, app.now());
    const result = await upload(abort.signal, reservation);
    completed = true;
    return result;
  } catch (err) {
    if (err instanceof ValidationAborted) {
      request.log.info({ userId: o.userId }, 'Upload aborted by the client');
      throw new AppError('validation', { message: 'The upload was aborted' });
    }
    stopReading(request, reply);
    throw err;
  } finally {
    request.raw.off('close', onClose);
    request.raw.off('end', onEnd);
    if (!completed) {
      await o.cleanUp?.();
      if (reservation) {
        await releaseValidation(app.db, reservation).catch((err: unknown) =>
          request.log.error({ err }, 'Could not release a reserved validation'),
        );
      }
    }
  }
}

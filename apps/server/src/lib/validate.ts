import type { z } from 'zod';
import { AppError } from '../errors.ts';

/**
 * Parses a JSON body with a contracts schema. A missing or non-object body is a 400 of its own;
 * a ZodError goes to the error handler, which answers 400 with the first message as `error`.
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('validation', { message: 'The request body must be a JSON object' });
  }
  return schema.parse(body);
}

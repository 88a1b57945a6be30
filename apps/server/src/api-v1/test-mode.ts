import { formatBytes, TEST_MODE_MAX_FILE_BYTES } from '@schemacheck/contracts';
import { AppError } from '../errors.ts';
import type { ApiAuth } from './auth.ts';

// Test-mode API keys (docs/decisions/174): the upload limits of a request. A live key gets its
// plan's; a test-mode key at most TEST_MODE_MAX_FILE_BYTES, refused with a message that says why
// (the plan allows more, the key does not).

export interface UploadLimit {
  maxBytes: number | null;
  tooLarge: (limit: number) => AppError;
}

export function testModeTooLarge(limit: number): AppError {
  return new AppError('file_too_large', {
    message: `Test-mode API keys (sc_test_…) accept files up to ${formatBytes(limit)}. Use a live key for larger files.`,
    extra: { limit },
  });
}

export function uploadLimitFor(auth: ApiAuth, live: UploadLimit): UploadLimit {
  if (auth.livemode) return live;
  if (live.maxBytes !== null && live.maxBytes < TEST_MODE_MAX_FILE_BYTES) return live;
  return { maxBytes: TEST_MODE_MAX_FILE_BYTES, tooLarge: testModeTooLarge };
}

import { z } from 'zod';

// Pieces shared by the public API's contracts (snake_case JSON, like every /api/v1 body).

export const API_V1_BASE_PATH = '/api/v1';

/** Synchronous validation limits: above them a file goes to /v1/jobs. */
export const SYNC_MAX_BYTES = 5 * 1024 * 1024;
export const SYNC_MAX_ROWS = 50_000;

/** Rows of sample_errors in a synchronous result; the report holds every error. */
export const SAMPLE_ERRORS = 100;

export const uuidSchema = z.uuid({ error: 'Must be an id (a UUID)' });

export const fileTypeSchema = z.enum(['csv', 'json'], { error: 'type must be csv or json' });

import { SUBSCRIPTION_TIERS, type SubscriptionTier } from '@schemacheck/contracts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { FileType } from '@schemacheck/engine';

// Every table the product needs (docs/product.md), plus what accounts need (rate-limit buckets) and the monthly usage
// counter. Everything a user owns references users(id) ON DELETE CASCADE, so deleting the user row
// deletes all of it in one statement (docs/decisions/011). Timestamps are timestamptz; the app
// writes them from its injectable clock where time matters (sessions, tokens, limits).
//
// Migrations are generated from this file: `npm run db:generate -w @schemacheck/server`.

const createdAt = () =>
  timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/** SUBSCRIPTION_TIERS of @schemacheck/contracts as an SQL list: `('free', 'pro', …)`. */
export const TIERS_SQL = sql.raw(`(${SUBSCRIPTION_TIERS.map((tier) => `'${tier}'`).join(', ')})`);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** As typed at registration (trimmed); unique ignoring case. */
    username: text('username').notNull(),
    /** As typed at registration (trimmed); unique ignoring case. */
    email: text('email').notNull(),
    /** scrypt in PHC form `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`: salt and parameters live here. */
    passwordHash: text('password_hash').notNull(),
    subscriptionTier: text('subscription_tier').$type<SubscriptionTier>().notNull().default('free'),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    /** Stripe's subscription status as last synced (active, past_due, canceled, …); null on free. */
    subscriptionStatus: text('subscription_status'),
    /** End of the paid period as last synced from Stripe (from the subscription item). */
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true, mode: 'date' }),
    /** True when the subscription ends at currentPeriodEnd (cancelled, not yet ended). */
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** When a renewal payment first failed; cleared when an invoice is paid. */
    pastDueSince: timestamp('past_due_since', { withTimezone: true, mode: 'date' }),
    /** Who set the tier last: 'stripe' (verified billing data) or 'operator' (npm run set-tier). */
    tierSource: text('tier_source').$type<'stripe' | 'operator'>(),
    tierUpdatedAt: timestamp('tier_updated_at', { withTimezone: true, mode: 'date' }),
    /** Public API requests a minute for the account (all its keys) agreed in a contract (npm run set-rate-limit); null: the plan's. */
    apiRateLimitPerMinute: integer('api_rate_limit_per_minute'),
    /** SHA-256 (hex) of the outstanding password-reset token; the token itself is never stored. */
    resetTokenHash: text('reset_token_hash'),
    resetTokenExpiresAt: timestamp('reset_token_expires_at', { withTimezone: true, mode: 'date' }),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_username_lower_uq').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`),
    uniqueIndex('users_reset_token_hash_uq').on(t.resetTokenHash),
    uniqueIndex('users_stripe_customer_id_uq').on(t.stripeCustomerId),
    check('users_subscription_tier_ck', sql`${t.subscriptionTier} in ${TIERS_SQL}`),
    uniqueIndex('users_stripe_subscription_id_uq').on(t.stripeSubscriptionId),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 (hex) of the cookie token. Also the CSRF binding of a signed-in request. */
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    /** Updated at most once a minute; the idle timeout counts from here. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** Absolute end of the session, fixed at sign-in. */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('sessions_user_id_idx').on(t.userId),
    index('sessions_expires_at_idx').on(t.expiresAt),
  ],
);

export const schemas = pgTable(
  'schemas',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Optional in the data model; every schema saved through the app has an owner. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /**
     * Null when the schema names no file type and its form implies none: each file's type is
     * then decided as for an inline schema (its name, then its first bytes).
     */
    fileType: text('file_type').$type<FileType>(),
    /** The field list as the web form or the public API wrote it. */
    fields: jsonb('fields').notNull(),
    /** Schema-level flags: orderMatters, additionalColumns, additionalProperties. */
    options: jsonb('options').notNull().default({}),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('schemas_user_id_created_at_idx').on(t.userId, t.createdAt),
    check('schemas_file_type_ck', sql`${t.fileType} in ('csv', 'json')`),
  ],
);

export const validationResults = pgTable(
  'validation_results',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    schemaId: uuid('schema_id').references(() => schemas.id, { onDelete: 'set null' }),
    fileName: text('file_name').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    fileType: text('file_type').$type<FileType>().notNull(),
    totalRows: bigint('total_rows', { mode: 'number' }).notNull().default(0),
    validRows: bigint('valid_rows', { mode: 'number' }).notNull().default(0),
    invalidRows: bigint('invalid_rows', { mode: 'number' }).notNull().default(0),
    errorCount: bigint('error_count', { mode: 'number' }).notNull().default(0),
    /** The first errors only (the table shows 50); the full list is in the report file. */
    errors: jsonb('errors').notNull().default([]),
    errorsByField: jsonb('errors_by_field').notNull().default({}),
    errorsByCode: jsonb('errors_by_code').notNull().default({}),
    /** Anything else the result view needs (duration, warnings, columns). */
    summary: jsonb('summary').notNull().default({}),
    /** The schema as it was when the file was validated. */
    schemaUsed: jsonb('schema_used').notNull(),
    /** Storage key of the full CSV error report; null when none was written. */
    reportKey: text('report_key'),
    createdAt: createdAt(),
  },
  (t) => [
    index('validation_results_user_id_created_at_idx').on(t.userId, t.createdAt),
    index('validation_results_schema_id_idx').on(t.schemaId),
    index('validation_results_created_at_idx').on(t.createdAt),
    check('validation_results_file_type_ck', sql`${t.fileType} in ('csv', 'json')`),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The first characters of the key (`sc_` and a few more), shown in lists. */
    keyPrefix: text('key_prefix').notNull(),
    /** SHA-256 (hex) of the whole key. */
    keyHash: text('key_hash').notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_uq').on(t.keyHash),
    index('api_keys_user_id_idx').on(t.userId),
  ],
);

/**
 * An account's current API rate-limit window (one minute) and its requests so far, counted for
 * every key of the account and shared by every server (docs/decisions/123).
 */
export const accountRateWindows = pgTable('account_rate_windows', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull(),
  count: integer('count').notNull(),
});

/**
 * `awaiting_upload`: a direct upload (docs/decisions/235) whose parts the client is still
 * sending to the bucket; it becomes `queued` when the client completes it.
 */
export const JOB_STATUSES = [
  'awaiting_upload',
  'queued',
  'running',
  'completed',
  'failed',
] as const;

export const validationJobs = pgTable(
  'validation_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    schemaId: uuid('schema_id').references(() => schemas.id, { onDelete: 'set null' }),
    fileName: text('file_name').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    status: text('status').$type<(typeof JOB_STATUSES)[number]>().notNull().default('queued'),
    resultId: uuid('result_id').references(() => validationResults.id, { onDelete: 'set null' }),
    /** Storage key of the uploaded file while the job waits or runs. */
    uploadKey: text('upload_key'),
    /** 'csv' or 'json', decided from the upload. */
    fileType: text('file_type').$type<FileType>(),
    /** The S3 multipart upload of a direct upload while the job awaits it (decision 235). */
    multipartUploadId: text('multipart_upload_id'),
    /** A job posted with source_url: the worker fetches the file from here (decision 235). */
    sourceUrl: text('source_url'),
    /** The schema as it was when the job was created (a saved schema may change later). */
    schemaUsed: jsonb('schema_used'),
    /**
     * The schema's text as it was sent, which the job runs with: schema_used is the value, in
     * which a number past 2^53 cannot keep its digits through JSON.parse.
     */
    schemaText: text('schema_text'),
    /** Records read so far, for progress. */
    rowsProcessed: bigint('rows_processed', { mode: 'number' }).notNull().default(0),
    /** Bytes of the upload read so far: progress is this over fileSize. */
    bytesProcessed: bigint('bytes_processed', { mode: 'number' }).notNull().default(0),
    /** Written by the process running the job; a stale one means that process died. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }),
    /** The usage month ('YYYY-MM', UTC) the job's validation was reserved in; null once released. */
    quotaMonth: text('quota_month'),
    attempts: integer('attempts').notNull().default(0),
    errorMessage: text('error_message'),
    estimatedSeconds: integer('estimated_seconds'),
    /** False for a job created with a test-mode key (docs/decisions/174): results say so. */
    livemode: boolean('livemode').notNull().default(true),
    /** Excel workbooks: the sheet asked for (`sheet`); null is the first worksheet. */
    sheet: text('sheet'),
    /** Zips: the entry asked for (`entry`); null when the zip holds one data file. */
    entry: text('entry'),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    /**
     * A CSV job split into parts validated by child jobs (docs/decisions/239): how many; null
     * for a job validated in one piece.
     */
    splitParts: integer('split_parts'),
    /** Parts of a split job whose outcome is stored; the merge is queued when all are. */
    partsDone: integer('parts_done').notNull().default(0),
    /** "Today" for every part and the merge of a split job (allowFuture / allowPast). */
    splitAt: timestamp('split_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('validation_jobs_user_id_created_at_idx').on(t.userId, t.createdAt),
    index('validation_jobs_status_idx').on(t.status),
    index('validation_jobs_schema_id_idx').on(t.schemaId),
    index('validation_jobs_result_id_idx').on(t.resultId),
    index('validation_jobs_status_heartbeat_at_idx').on(t.status, t.heartbeatAt),
    check(
      'validation_jobs_status_ck',
      sql`${t.status} in ('awaiting_upload', 'queued', 'running', 'completed', 'failed')`,
    ),
  ],
);

/**
 * The parts of a split job (docs/decisions/239): a byte range of the upload, cut at record
 * boundaries into the chunks the engine validates, run as a child job on any worker. The part's
 * outcome is a storage object (jobs/split-jobs.ts outcomeKeyFor); the attempt number is the
 * lease, as for a job.
 */
export const validationJobParts = pgTable(
  'validation_job_parts',
  {
    jobId: uuid('job_id')
      .notNull()
      .references(() => validationJobs.id, { onDelete: 'cascade' }),
    part: integer('part').notNull(),
    status: text('status').$type<'queued' | 'running' | 'completed'>().notNull().default('queued'),
    /** The engine's planned chunks of this part ({index, start, end, lineBreaksBefore, ...}). */
    chunks: jsonb('chunks').notNull(),
    startByte: bigint('start_byte', { mode: 'number' }).notNull(),
    endByte: bigint('end_byte', { mode: 'number' }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ columns: [t.jobId, t.part] }),
    index('validation_job_parts_status_heartbeat_at_idx').on(t.status, t.heartbeatAt),
    check('validation_job_parts_status_ck', sql`${t.status} in ('queued', 'running', 'completed')`),
  ],
);

export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** HMAC signing secret (`whsec_…`); needed in clear to sign deliveries. */
    secret: text('secret').notNull(),
    events: text('events').array().notNull(),
    isActive: boolean('is_active').notNull().default(true),
    /** First failed delivery of the current run of failures; cleared by a success. */
    failingSince: timestamp('failing_since', { withTimezone: true, mode: 'date' }),
    /** Why the webhook was switched off (shown on /profile), when it was. */
    disabledReason: text('disabled_reason'),
    disabledAt: timestamp('disabled_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index('webhooks_user_id_idx').on(t.userId)],
);

/**
 * One row per attempt to deliver one message to one webhook. `messageId` is the Standard Webhooks
 * `webhook-id`, the same for every attempt (and a redelivery) of one message.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    messageId: text('message_id').notNull(),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').notNull(),
    attempt: integer('attempt').notNull().default(1),
    /**
     * pending (due at next_attempt_at), waiting (due, held back by its account's share of the
     * delivery slots), sending (claimed; next_attempt_at is the lease's end), succeeded, failed.
     */
    status: text('status')
      .$type<'pending' | 'waiting' | 'sending' | 'succeeded' | 'failed'>()
      .notNull()
      .default('pending'),
    responseStatus: integer('response_status'),
    durationMs: integer('duration_ms'),
    error: text('error'),
    responseExcerpt: text('response_excerpt'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_webhook_id_created_at_idx').on(t.webhookId, t.createdAt),
    index('webhook_deliveries_message_id_idx').on(t.messageId),
    index('webhook_deliveries_user_id_idx').on(t.userId),
    index('webhook_deliveries_status_next_attempt_at_idx').on(t.status, t.nextAttemptAt),
  ],
);

/** Stripe event ids already handled; written in the same transaction as the change they made. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  processedAt: timestamp('processed_at', { withTimezone: true, mode: 'date' })
    .notNull()
    .defaultNow(),
});

/**
 * Billing's test mode: its Stripe account (customers, subscriptions, invoices, test clocks) as one
 * JSON document, so that it lasts as long as the users it bills (docs/decisions/127). Text, not
 * jsonb: JSON.stringify escapes what jsonb refuses (\u0000), and nothing queries inside it.
 */
export const billingTestMode = pgTable('billing_test_mode', {
  id: text('id').primaryKey(),
  state: text('state').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * Public API idempotency: the first response to a POST with an `Idempotency-Key`, replayed for a
 * repeat of the same request and refused for a different one. Kept 24 hours.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** SHA-256 of method, path and body, to refuse the same key on a different request. */
    requestHash: text('request_hash').notNull(),
    /** Null while the first request is still running. */
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'idempotency_keys_pk', columns: [t.userId, t.key] }),
    index('idempotency_keys_created_at_idx').on(t.createdAt),
  ],
);

export const apiUsage = pgTable(
  'api_usage',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    apiKeyId: uuid('api_key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    endpoint: text('endpoint').notNull(),
    method: text('method').notNull(),
    rowsProcessed: bigint('rows_processed', { mode: 'number' }).notNull().default(0),
    bytesProcessed: bigint('bytes_processed', { mode: 'number' }).notNull().default(0),
    responseStatus: integer('response_status').notNull(),
    timestamp: timestamp('timestamp', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('api_usage_user_id_timestamp_idx').on(t.userId, t.timestamp),
    index('api_usage_api_key_id_idx').on(t.apiKeyId),
  ],
);

/**
 * Validations counted per user and calendar month (UTC). Quota checks increment this row with one
 * conditional UPDATE, so parallel requests can never pass the limit together.
 */
export const usageCounters = pgTable(
  'usage_counters',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'YYYY-MM' in UTC. */
    month: text('month').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'usage_counters_pk', columns: [t.userId, t.month] }),
    check('usage_counters_month_ck', sql`${t.month} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
    check('usage_counters_count_ck', sql`${t.count} >= 0`),
  ],
);

/**
 * Fixed-window counters shared by every server process: failed sign-ins per account, reset mails
 * per address. `key` names the bucket (it never holds a raw email or username: see
 * auth/throttle.ts); `userId` is set when the bucket belongs to an account, so it goes with it.
 */
export const rateLimitBuckets = pgTable(
  'rate_limit_buckets',
  {
    key: text('key').primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    count: integer('count').notNull(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('rate_limit_buckets_user_id_idx').on(t.userId),
    index('rate_limit_buckets_window_started_at_idx').on(t.windowStartedAt),
  ],
);

/**
 * Reference lists an account saves for `inList` rules (docs/decisions/200). The values are one
 * JSON array, read whole when a validation needs the list; `value_count` lets listings skip it.
 */
export const referenceLists = pgTable(
  'reference_lists',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    values: jsonb('values').notNull(),
    valueCount: integer('value_count').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('reference_lists_user_id_name_idx').on(t.userId, t.name),
    index('reference_lists_user_id_created_at_idx').on(t.userId, t.createdAt),
    check('reference_lists_value_count_ck', sql`${t.valueCount} >= 0`),
  ],
);

export type User = typeof users.$inferSelect;
export type Session = typeof sessions.$inferSelect;

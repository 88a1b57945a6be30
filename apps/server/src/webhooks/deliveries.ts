import {
  and,
  arrayContains,
  asc,
  count,
  eq,
  gt,
  inArray,
  isNull,
  lt,
  lte,
  or,
  sql,
} from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { users, webhookDeliveries, webhooks } from '../db/schema.ts';
import type { Mailer } from '../mail/mailer.ts';
import { executorOf, type JobQueue } from '../jobs/queue.ts';
import { lockAccount } from '../lib/account-lock.ts';
import { storableJson, storableString } from '../lib/unicode.ts';
import { addressPolicy } from '../lib/address-policy.ts';
import type { OutboundPolicy, Resolver } from '../lib/outbound.ts';
import { postJson, type PostResult } from './http-client.ts';
import { newMessageId, signatureHeaders } from './signing.ts';

// Delivering webhook messages (docs/decisions/092, 122). Each attempt is one webhook_deliveries
// row. The first attempt's row is written in the same transaction as the event (a job
// finishing), so a crash right after cannot lose it; a pg-boss job then runs the attempt.
// Whoever runs an attempt first claims its row with one conditional UPDATE (pending → sending,
// with a lease), so a duplicate pg-boss job or the sweep can never send one attempt twice. An
// account has at most ACCOUNT_CONCURRENCY attempts sending at once: past that, a due attempt
// waits (status `waiting`) and the next attempt of that account to end wakes it, so one
// account's slow endpoint cannot hold every delivery slot. A failed attempt writes the next
// attempt's row with its due time and a pg-boss job that starts then; a sweep re-sends pg-boss
// jobs for due rows nobody ran (a process that died between the commit and the send, or during
// an attempt, or a waiting attempt nobody woke).

export const WEBHOOK_QUEUE = 'webhook-delivery';
/** Sent by POST /v1/webhooks/{id}/test only. */
export const TEST_EVENT = 'webhook.test';
/**
 * Attempts one account may have in flight at once, over every process: a slow or failing
 * endpoint holds at most this many of the delivery slots, and other accounts keep the rest
 * (docs/decisions/122).
 */
export const ACCOUNT_CONCURRENCY = 2;
/** Attempts one process runs at once (pg-boss workers of the webhook queue). */
export const DELIVERY_SLOTS = 8;

export interface WebhookDeps {
  db: Db;
  config: Pick<Config, 'webhooks'>;
  /** For links in mails. */
  appUrl?: string;
  now: () => Date;
  log: FastifyBaseLogger;
  jobQueue: JobQueue;
  /** Tells the owner when a webhook is switched off. */
  mailer?: Mailer;
  /** Tests replace DNS. */
  resolver?: Resolver;
}

export interface Message {
  event: string;
  /** Epoch milliseconds of the event. */
  timestamp: number;
  /** Job events: false for a test-mode job (docs/decisions/174). */
  livemode?: boolean;
  data: Record<string, unknown>;
}

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export function outboundPolicy(deps: Pick<WebhookDeps, 'config' | 'resolver'>): OutboundPolicy {
  return {
    addresses: addressPolicy(deps.config.webhooks.allowedAddresses),
    allowHttp: deps.config.webhooks.allowHttp,
    ...(deps.resolver ? { resolver: deps.resolver } : {}),
  };
}

/**
 * Writes the first attempt of `message` for every active webhook of the user that subscribed to
 * its event. Call inside the transaction that makes the event true; then `nudge` the ids.
 */
export async function recordEvent(
  tx: Pick<Db, 'select' | 'insert'>,
  userId: string,
  message: Message,
  now: Date,
): Promise<string[]> {
  const targets = await tx
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(
      and(
        eq(webhooks.userId, userId),
        eq(webhooks.isActive, true),
        arrayContains(webhooks.events, [message.event]),
      ),
    );
  if (targets.length === 0) return [];
  const rows = await tx
    .insert(webhookDeliveries)
    .values(
      targets.map((t) => ({
        webhookId: t.id,
        userId,
        messageId: newMessageId(),
        eventType: message.event,
        // Ours, but it quotes what users sent (a file name): storable whatever it holds.
        payload: storableJson(message),
        attempt: 1,
        status: 'pending' as const,
        nextAttemptAt: now,
        createdAt: now,
      })),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.map((r) => r.id);
}

/**
 * pg-boss's singleton key of an attempt's job. A job that runs now has its own key, apart from
 * the one a retry was scheduled with: the queue's `short` policy keeps one waiting job per key,
 * so a "now" under the scheduled key would be dropped and the attempt would wait for its backoff.
 */
const jobKey = (id: string, at?: Date) => (at ? id : `${id}:now`);

/** Asks pg-boss to run these attempts (at `at`, or now). Duplicates are harmless. */
export async function nudge(deps: Pick<WebhookDeps, 'jobQueue' | 'log'>, ids: string[], at?: Date) {
  if (ids.length === 0) return;
  try {
    const boss = await deps.jobQueue.boss();
    for (const id of ids) {
      await boss.send(
        WEBHOOK_QUEUE,
        { deliveryId: id },
        { singletonKey: jobKey(id, at), ...(at ? { startAfter: at } : {}) },
      );
    }
  } catch (err) {
    // The rows are there: the sweep sends them.
    deps.log.warn({ err }, 'Could not queue webhook deliveries; the sweep will');
  }
}

/** Sends the pg-boss job of an attempt in the caller's transaction. */
export async function nudgeInTransaction(
  deps: Pick<WebhookDeps, 'jobQueue'>,
  tx: Pick<Db, 'execute'>,
  ids: string[],
): Promise<void> {
  if (ids.length === 0) return;
  const boss = await deps.jobQueue.boss();
  for (const id of ids) {
    await boss.send(
      WEBHOOK_QUEUE,
      { deliveryId: id },
      { singletonKey: jobKey(id), db: executorOf(tx) },
    );
  }
}

/** How long a claimed attempt is someone's before the sweep may give it to another process. */
function leaseMs(deps: Pick<WebhookDeps, 'config'>): number {
  return deps.config.webhooks.timeoutMs + 30_000;
}

type Claim = { kind: 'claimed'; row: DeliveryRow } | { kind: 'waiting' } | { kind: 'none' };

/**
 * Takes a due attempt (1 s early is fine: pg-boss rounds) for this process, unless its account
 * already has ACCOUNT_CONCURRENCY attempts in flight: then it waits (status `waiting`) until one
 * of them ends and wakes it. Counting and claiming happen under the account's lock, so every
 * process sees the same count.
 */
async function claim(deps: WebhookDeps, id: string): Promise<Claim> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const due = and(
      eq(webhookDeliveries.id, id),
      eq(webhookDeliveries.status, 'pending'),
      or(
        isNull(webhookDeliveries.nextAttemptAt),
        lte(webhookDeliveries.nextAttemptAt, new Date(now.getTime() + 1000)),
      ),
    );
    const [row] = await tx.select().from(webhookDeliveries).where(due);
    if (!row) return { kind: 'none' };
    await lockAccount(tx, row.userId);
    const [inFlight] = await tx
      .select({ n: count() })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.userId, row.userId),
          eq(webhookDeliveries.status, 'sending'),
          gt(webhookDeliveries.nextAttemptAt, now),
        ),
      );
    if ((inFlight?.n ?? 0) >= ACCOUNT_CONCURRENCY) {
      const [waits] = await tx
        .update(webhookDeliveries)
        .set({ status: 'waiting', nextAttemptAt: now })
        .where(due)
        .returning({ id: webhookDeliveries.id });
      return waits ? { kind: 'waiting' } : { kind: 'none' };
    }
    const [claimed] = await tx
      .update(webhookDeliveries)
      .set({ status: 'sending', nextAttemptAt: new Date(now.getTime() + leaseMs(deps)) })
      .where(due)
      .returning();
    return claimed ? { kind: 'claimed', row: claimed } : { kind: 'none' };
  });
}

/**
 * Records how an attempt ended and hands its slot to the account's oldest waiting attempt (one
 * transaction under the account's lock, so a claim that just chose to wait is always seen).
 */
async function settle(
  deps: WebhookDeps,
  row: DeliveryRow,
  values: Partial<DeliveryRow>,
): Promise<boolean> {
  let settled = false;
  const woken = await deps.db.transaction(async (tx) => {
    await lockAccount(tx, row.userId);
    const done = await tx
      .update(webhookDeliveries)
      .set({ nextAttemptAt: null, ...values })
      .where(and(eq(webhookDeliveries.id, row.id), eq(webhookDeliveries.status, 'sending')))
      .returning({ id: webhookDeliveries.id });
    settled = done.length > 0;
    const [next] = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.userId, row.userId), eq(webhookDeliveries.status, 'waiting')))
      .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.attempt))
      .limit(1);
    if (!next) return [];
    await tx
      .update(webhookDeliveries)
      .set({ status: 'pending', nextAttemptAt: deps.now() })
      .where(and(eq(webhookDeliveries.id, next.id), eq(webhookDeliveries.status, 'waiting')));
    return [next.id];
  });
  await nudge(deps, woken);
  return settled;
}

/** The wait before attempt `next` (2 = the first retry), with ±10 % jitter; null: no more. */
export function retryDelayMs(delays: number[], next: number, random = Math.random): number | null {
  const base = delays[next - 2];
  if (base === undefined) return null;
  return Math.round(base * (0.9 + 0.2 * random()));
}

/**
 * The wait before the next attempt: the schedule's, or longer when the receiver asked for more
 * with Retry-After, but never past the schedule's longest step (a receiver answering
 * `Retry-After: 9999999999` must not push its retries out of existence).
 */
export function nextDelayMs(
  delays: number[],
  next: number,
  retryAfterSeconds: number | null,
  random = Math.random,
): number | null {
  const delay = retryDelayMs(delays, next, random);
  if (delay === null || retryAfterSeconds === null) return delay;
  const longest = Math.max(...delays);
  return Math.max(delay, Math.min(retryAfterSeconds * 1000, longest));
}

/**
 * Runs one attempt (the pg-boss handler). Never leaves an attempt claimed because of what the
 * receiver answered: when recording the answer fails, the attempt is recorded as failed without
 * it, and the schedule goes on.
 */
export async function runAttempt(deps: WebhookDeps, id: string): Promise<void> {
  const claimed = await claim(deps, id);
  if (claimed.kind !== 'claimed') return;
  const row = claimed.row;
  const [hook] = await deps.db.select().from(webhooks).where(eq(webhooks.id, row.webhookId));
  if (!hook || !hook.isActive) {
    await settle(deps, row, { status: 'failed', error: 'The webhook is disabled' });
    return;
  }

  const body = JSON.stringify(row.payload);
  const started = deps.now();
  const result = await postJson(
    hook.url,
    body,
    signatureHeaders(hook.secret, row.messageId, body, started),
    { policy: outboundPolicy(deps), timeoutMs: deps.config.webhooks.timeoutMs },
  );
  try {
    await recordResult(deps, row, hook, result);
  } catch (err) {
    deps.log.error({ err, deliveryId: row.id }, 'Could not record a webhook attempt as it was');
    await recordResult(deps, row, hook, {
      ...result,
      ok: false,
      excerpt: null,
      error: 'SchemaCheck could not record the answer of this attempt.',
    });
  }
}

async function recordResult(
  deps: WebhookDeps,
  row: DeliveryRow,
  hook: typeof webhooks.$inferSelect,
  result: PostResult,
): Promise<void> {
  // Not ours any more (the sweep gave it to another process after the lease): it records.
  const settled = await settle(deps, row, {
    status: result.ok ? 'succeeded' : 'failed',
    responseStatus: result.status,
    durationMs: result.durationMs,
    error: result.error === null ? null : storableString(result.error),
    responseExcerpt: result.excerpt === null ? null : storableString(result.excerpt),
  });
  if (!settled) return;
  deps.log.info(
    { webhookId: hook.id, messageId: row.messageId, attempt: row.attempt, status: result.status },
    result.ok ? 'Webhook delivered' : 'Webhook delivery failed',
  );

  const now = deps.now();
  if (result.ok) {
    if (hook.failingSince) {
      await deps.db.update(webhooks).set({ failingSince: null }).where(eq(webhooks.id, hook.id));
    }
    return;
  }
  const failingSince = hook.failingSince ?? now;
  const disable =
    result.status === 410
      ? 'The endpoint answered 410 Gone.'
      : now.getTime() - failingSince.getTime() >= deps.config.webhooks.disableAfterMs
        ? `Every delivery has failed since ${failingSince.toISOString().slice(0, 10)}.`
        : null;
  await deps.db
    .update(webhooks)
    .set(
      disable
        ? { failingSince, isActive: false, disabledReason: disable, disabledAt: now }
        : { failingSince },
    )
    .where(eq(webhooks.id, hook.id));
  if (disable) {
    deps.log.warn({ webhookId: hook.id, reason: disable }, 'Webhook disabled');
    await tellOwner(deps, hook, disable).catch((err: unknown) =>
      deps.log.error({ err, webhookId: hook.id }, 'Could not mail the owner of a disabled webhook'),
    );
    return;
  }

  const delay = nextDelayMs(
    deps.config.webhooks.retryDelaysMs,
    row.attempt + 1,
    result.retryAfterSeconds,
  );
  if (delay === null) return;
  const at = new Date(now.getTime() + delay);
  const [next] = await deps.db
    .insert(webhookDeliveries)
    .values({
      webhookId: row.webhookId,
      userId: row.userId,
      messageId: row.messageId,
      eventType: row.eventType,
      payload: row.payload,
      attempt: row.attempt + 1,
      status: 'pending',
      nextAttemptAt: at,
      createdAt: now,
    })
    .returning({ id: webhookDeliveries.id });
  await nudge(deps, [next!.id], at);
}

async function tellOwner(
  deps: WebhookDeps,
  hook: { userId: string; url: string },
  reason: string,
): Promise<void> {
  if (!deps.mailer) return;
  const [owner] = await deps.db.select().from(users).where(eq(users.id, hook.userId));
  if (!owner) return;
  await deps.mailer.send({
    to: owner.email,
    subject: 'SchemaCheck stopped sending to one of your webhooks',
    text: [
      `Hello ${owner.username},`,
      '',
      `SchemaCheck has switched off deliveries to ${hook.url}.`,
      reason,
      '',
      `Fix the endpoint, then enable the webhook again in your profile: ${deps.appUrl ?? ''}/profile`,
      'Its delivery log shows every attempt and its answer.',
    ].join('\n'),
  });
}

/**
 * Re-sends pg-boss jobs for attempts that are overdue by a minute: lost sends, attempts whose
 * process died while sending (their lease ran out), and waiting ones nobody woke.
 */
export async function sweepDeliveries(deps: WebhookDeps): Promise<number> {
  const cutoff = new Date(deps.now().getTime() - 60_000);
  const due = await deps.db
    .select({ id: webhookDeliveries.id, status: webhookDeliveries.status })
    .from(webhookDeliveries)
    .where(
      and(
        inArray(webhookDeliveries.status, ['pending', 'waiting', 'sending']),
        or(isNull(webhookDeliveries.nextAttemptAt), lt(webhookDeliveries.nextAttemptAt, cutoff)),
      ),
    )
    .orderBy(asc(webhookDeliveries.createdAt))
    .limit(200);
  // Make them due now, then queue them.
  for (const d of due) {
    await deps.db
      .update(webhookDeliveries)
      .set({ status: 'pending', nextAttemptAt: deps.now() })
      .where(and(eq(webhookDeliveries.id, d.id), eq(webhookDeliveries.status, d.status)));
  }
  await nudge(
    deps,
    due.map((d) => d.id),
  );
  return due.length;
}

/**
 * Sends `message` to one webhook now, outside any schedule (the test event, a redelivery): one
 * pending row, run by the queue like any other. Retries follow if it fails. `guard` runs first,
 * in the same transaction and under the account's lock (a rate to check), and may throw.
 */
export async function sendNow(
  deps: WebhookDeps,
  hook: { id: string; userId: string },
  message: Message,
  options: {
    messageId?: string;
    attempt?: number;
    guard?: (tx: Pick<Db, 'select'>) => Promise<void>;
  } = {},
): Promise<DeliveryRow> {
  const now = deps.now();
  const row = await deps.db.transaction(async (tx) => {
    if (options.guard) {
      await lockAccount(tx, hook.userId);
      await options.guard(tx);
    }
    const [inserted] = await tx
      .insert(webhookDeliveries)
      .values({
        webhookId: hook.id,
        userId: hook.userId,
        messageId: options.messageId ?? newMessageId(),
        eventType: message.event,
        payload: storableJson(message),
        attempt: options.attempt ?? 1,
        status: 'pending',
        nextAttemptAt: now,
        createdAt: now,
      })
      .returning();
    return inserted!;
  });
  await nudge(deps, [row.id]);
  return row;
}

/** The number of the next attempt of a message. */
export async function nextAttemptNumber(db: Db, messageId: string): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`coalesce(max(${webhookDeliveries.attempt}), 0)::int` })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.messageId, messageId));
  return (r?.n ?? 0) + 1;
}

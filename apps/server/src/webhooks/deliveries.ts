import { and, asc, eq, isNull, lte, lt, or, sql, arrayContains } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { users, webhookDeliveries, webhooks } from '../db/schema.ts';
import type { Mailer } from '../mail/mailer.ts';
import { executorOf, type JobQueue } from '../jobs/queue.ts';
import { addressPolicy } from './address-policy.ts';
import { postJson, type OutboundPolicy, type Resolver } from './http-client.ts';
import { newMessageId, signatureHeaders } from './signing.ts';

// Delivering webhook messages (docs/decisions/092). Each attempt is one webhook_deliveries row.
// The first attempt's row is written in the same transaction as the event (a job finishing), so a
// crash right after cannot lose it; a pg-boss job then runs the attempt. Whoever runs an attempt
// first claims its row with one conditional UPDATE (a lease), so a duplicate pg-boss job or the
// sweep can never send one attempt twice. A failed attempt writes the next attempt's row with its
// due time and a pg-boss job that starts then; a sweep re-sends pg-boss jobs for due rows nobody
// ran (a process that died between the commit and the send, or during an attempt).

export const WEBHOOK_QUEUE = 'webhook-delivery';
export const WEBHOOK_EVENTS = ['job.completed', 'job.failed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** Sent by POST /v1/webhooks/{id}/test only. */
export const TEST_EVENT = 'webhook.test';

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
        payload: message,
        attempt: 1,
        status: 'pending' as const,
        nextAttemptAt: now,
        createdAt: now,
      })),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.map((r) => r.id);
}

/** Asks pg-boss to run these attempts (at `at`, or now). Duplicates are harmless. */
export async function nudge(deps: Pick<WebhookDeps, 'jobQueue' | 'log'>, ids: string[], at?: Date) {
  if (ids.length === 0) return;
  try {
    const boss = await deps.jobQueue.boss();
    for (const id of ids) {
      await boss.send(
        WEBHOOK_QUEUE,
        { deliveryId: id },
        { singletonKey: id, ...(at ? { startAfter: at } : {}) },
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
    await boss.send(WEBHOOK_QUEUE, { deliveryId: id }, { singletonKey: id, db: executorOf(tx) });
  }
}

/** How long a claimed attempt is someone's before the sweep may give it to another process. */
function leaseMs(deps: Pick<WebhookDeps, 'config'>): number {
  return deps.config.webhooks.timeoutMs + 30_000;
}

/** Due now: a pending attempt whose time has come (1 s early is fine: pg-boss rounds). */
async function claim(deps: WebhookDeps, id: string): Promise<DeliveryRow | undefined> {
  const now = deps.now();
  const [row] = await deps.db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: new Date(now.getTime() + leaseMs(deps)) })
    .where(
      and(
        eq(webhookDeliveries.id, id),
        eq(webhookDeliveries.status, 'pending'),
        or(
          isNull(webhookDeliveries.nextAttemptAt),
          lte(webhookDeliveries.nextAttemptAt, new Date(now.getTime() + 1000)),
        ),
      ),
    )
    .returning();
  return row;
}

/** The wait before attempt `next` (2 = the first retry), with ±10 % jitter; null: no more. */
export function retryDelayMs(delays: number[], next: number, random = Math.random): number | null {
  const base = delays[next - 2];
  if (base === undefined) return null;
  return Math.round(base * (0.9 + 0.2 * random()));
}

/** Runs one attempt (the pg-boss handler). */
export async function runAttempt(deps: WebhookDeps, id: string): Promise<void> {
  const row = await claim(deps, id);
  if (!row) return;
  const [hook] = await deps.db.select().from(webhooks).where(eq(webhooks.id, row.webhookId));
  const finish = (values: Partial<DeliveryRow>) =>
    deps.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: null, ...values })
      .where(eq(webhookDeliveries.id, row.id));
  if (!hook || !hook.isActive) {
    await finish({ status: 'failed', error: 'The webhook is disabled' });
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
  await finish({
    status: result.ok ? 'succeeded' : 'failed',
    responseStatus: result.status,
    durationMs: result.durationMs,
    error: result.error,
    responseExcerpt: result.excerpt,
  });
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

  let delay = retryDelayMs(deps.config.webhooks.retryDelaysMs, row.attempt + 1);
  if (delay === null) return;
  // A receiver asking to slow down (429, 503 with Retry-After) gets at least what it asked.
  if (result.retryAfterSeconds !== null) delay = Math.max(delay, result.retryAfterSeconds * 1000);
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

/** Re-sends pg-boss jobs for attempts that are overdue by a minute (lost sends, dead workers). */
export async function sweepDeliveries(deps: WebhookDeps): Promise<number> {
  const cutoff = new Date(deps.now().getTime() - 60_000);
  const due = await deps.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        or(isNull(webhookDeliveries.nextAttemptAt), lt(webhookDeliveries.nextAttemptAt, cutoff)),
      ),
    )
    .orderBy(asc(webhookDeliveries.createdAt))
    .limit(200);
  // Make them due now, then queue them.
  for (const d of due) {
    await deps.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: deps.now() })
      .where(and(eq(webhookDeliveries.id, d.id), eq(webhookDeliveries.status, 'pending')));
  }
  await nudge(
    deps,
    due.map((d) => d.id),
  );
  return due.length;
}

/**
 * Sends `message` to one webhook now, outside any schedule (the test event, a redelivery): one
 * pending row, run by the queue like any other. Retries follow if it fails.
 */
export async function sendNow(
  deps: WebhookDeps,
  hook: { id: string; userId: string },
  message: Message,
  options: { messageId?: string; attempt?: number } = {},
): Promise<DeliveryRow> {
  const now = deps.now();
  const [row] = await deps.db
    .insert(webhookDeliveries)
    .values({
      webhookId: hook.id,
      userId: hook.userId,
      messageId: options.messageId ?? newMessageId(),
      eventType: message.event,
      payload: message,
      attempt: options.attempt ?? 1,
      status: 'pending',
      nextAttemptAt: now,
      createdAt: now,
    })
    .returning();
  await nudge(deps, [row!.id]);
  return row!;
}

/** The number of the next attempt of a message. */
export async function nextAttemptNumber(db: Db, messageId: string): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`coalesce(max(${webhookDeliveries.attempt}), 0)::int` })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.messageId, messageId));
  return (r?.n ?? 0) + 1;
}

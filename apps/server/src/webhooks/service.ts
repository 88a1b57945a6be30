import {
  MAX_WEBHOOKS,
  type DeliveryV1,
  type WebhookCreatedV1,
  type WebhookEventV1,
  type WebhookV1,
} from '@schemacheck/contracts';
import { and, count, desc, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { webhookDeliveries, webhooks } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { lockAccount } from '../lib/account-lock.ts';
import { isUuid } from '../lib/uuid.ts';
import {
  nextAttemptNumber,
  nudge,
  outboundPolicy,
  sendNow,
  TEST_EVENT,
  type WebhookDeps,
} from './deliveries.ts';
import { checkDestination, RefusedDestination } from '../lib/outbound.ts';
import { newWebhookSecret } from './signing.ts';

// Managing a user's webhooks, shared by /v1/webhooks (API key) and /api/webhooks (the profile
// page, session and CSRF). Another user's webhook is "not found", never "forbidden".

type Row = typeof webhooks.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export const webhookNotFound = () => new AppError('not_found', { message: 'No such webhook' });

/**
 * Test events one webhook may be sent a minute (docs/decisions/122): enough to try an endpoint,
 * too few for one account to fill the delivery queue with them.
 */
export const TEST_EVENTS_PER_MINUTE = 5;

export function toV1(row: Row): WebhookV1 {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEventV1[],
    is_active: row.isActive,
    created_at: row.createdAt.toISOString(),
    failing_since: row.failingSince?.toISOString() ?? null,
    disabled_at: row.disabledAt?.toISOString() ?? null,
    disabled_reason: row.disabledReason,
  };
}

export function deliveryToV1(d: DeliveryRow): DeliveryV1 {
  return {
    id: d.id,
    message_id: d.messageId,
    event: d.eventType,
    attempt: d.attempt,
    // `waiting` and `sending` are ours: to the user the attempt is still to come.
    status: d.status === 'waiting' || d.status === 'sending' ? 'pending' : d.status,
    response_status: d.responseStatus,
    duration_ms: d.durationMs,
    error: d.error,
    response_excerpt: d.responseExcerpt,
    created_at: d.createdAt.toISOString(),
    next_attempt_at:
      d.status === 'pending' || d.status === 'waiting'
        ? (d.nextAttemptAt?.toISOString() ?? null)
        : null,
  };
}

export async function createWebhook(
  deps: WebhookDeps,
  userId: string,
  input: { url: string; events: WebhookEventV1[] },
): Promise<WebhookCreatedV1> {
  try {
    await checkDestination(input.url, outboundPolicy(deps));
  } catch (err) {
    if (err instanceof RefusedDestination) {
      throw new AppError('validation', {
        message: `This URL cannot receive webhooks: ${err.message}`,
        extra: { issues: [{ path: 'url', message: err.message }] },
      });
    }
    throw err;
  }
  const secret = newWebhookSecret();
  // Count and insert under the account's lock: parallel creates cannot pass the cap together.
  const row = await deps.db.transaction(async (tx) => {
    await lockAccount(tx, userId);
    const [n] = await tx.select({ n: count() }).from(webhooks).where(eq(webhooks.userId, userId));
    if ((n?.n ?? 0) >= MAX_WEBHOOKS) {
      throw new AppError('validation', {
        message: `An account can have at most ${MAX_WEBHOOKS} webhooks. Delete one first.`,
      });
    }
    const [inserted] = await tx
      .insert(webhooks)
      .values({
        userId,
        url: input.url,
        secret,
        events: [...new Set(input.events)],
        createdAt: deps.now(),
      })
      .returning();
    return inserted!;
  });
  return { ...toV1(row), secret };
}

export async function listWebhooks(deps: WebhookDeps, userId: string): Promise<WebhookV1[]> {
  const rows = await deps.db
    .select()
    .from(webhooks)
    .where(eq(webhooks.userId, userId))
    .orderBy(desc(webhooks.createdAt));
  return rows.map(toV1);
}

export async function findOwnWebhook(deps: WebhookDeps, userId: string, id: string): Promise<Row> {
  if (!isUuid(id)) throw webhookNotFound();
  const [row] = await deps.db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.userId, userId)));
  if (!row) throw webhookNotFound();
  return row;
}

export async function deleteWebhook(deps: WebhookDeps, userId: string, id: string): Promise<void> {
  const row = await findOwnWebhook(deps, userId, id);
  await deps.db.delete(webhooks).where(eq(webhooks.id, row.id));
}

/** Switches a disabled webhook back on; its run of failures starts again. */
export async function enableWebhook(deps: WebhookDeps, userId: string, id: string) {
  const row = await findOwnWebhook(deps, userId, id);
  const [updated] = await deps.db
    .update(webhooks)
    .set({ isActive: true, failingSince: null, disabledAt: null, disabledReason: null })
    .where(eq(webhooks.id, row.id))
    .returning();
  return toV1(updated!);
}

export async function sendTestEvent(
  deps: WebhookDeps,
  userId: string,
  id: string,
): Promise<DeliveryV1> {
  const row = await findOwnWebhook(deps, userId, id);
  if (!row.isActive) {
    throw new AppError('validation', { message: 'This webhook is disabled: enable it first.' });
  }
  const now = deps.now();
  const d = await sendNow(
    deps,
    row,
    {
      event: TEST_EVENT,
      timestamp: now.getTime(),
      data: { webhook_id: row.id, message: 'A test event from SchemaCheck.' },
    },
    { guard: (tx) => testEventRate(tx, row.id, now) },
  );
  return deliveryToV1(d);
}

/** Refuses a test event past TEST_EVENTS_PER_MINUTE for this webhook (429 with Retry-After). */
async function testEventRate(tx: Pick<Db, 'select'>, webhookId: string, now: Date) {
  const recent = await tx
    .select({ at: webhookDeliveries.createdAt })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.webhookId, webhookId),
        eq(webhookDeliveries.eventType, TEST_EVENT),
        eq(webhookDeliveries.attempt, 1),
        gt(webhookDeliveries.createdAt, new Date(now.getTime() - 60_000)),
      ),
    )
    .orderBy(webhookDeliveries.createdAt);
  if (recent.length < TEST_EVENTS_PER_MINUTE) return;
  // The oldest of them leaves the minute first.
  const wait = Math.max(1, Math.ceil((recent[0]!.at.getTime() + 60_000 - now.getTime()) / 1000));
  throw new AppError('rate_limited', {
    message: `A webhook can be sent at most ${TEST_EVENTS_PER_MINUTE} test events a minute. Try again in ${wait} seconds.`,
    headers: { 'retry-after': String(wait) },
  });
}

const DELIVERY_PAGE = 100;

export async function listDeliveries(
  deps: WebhookDeps,
  userId: string,
  id: string,
): Promise<DeliveryV1[]> {
  const row = await findOwnWebhook(deps, userId, id);
  const rows = await deps.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, row.id))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.attempt))
    .limit(DELIVERY_PAGE);
  return rows.map(deliveryToV1);
}

/**
 * Sends a delivery's message again, with the same webhook-id: a pending retry is sent now,
 * otherwise one more attempt is made now.
 */
export async function redeliver(
  deps: WebhookDeps,
  userId: string,
  webhookId: string,
  deliveryId: string,
): Promise<DeliveryV1> {
  const hook = await findOwnWebhook(deps, userId, webhookId);
  if (!hook.isActive) {
    throw new AppError('validation', { message: 'This webhook is disabled: enable it first.' });
  }
  if (!isUuid(deliveryId)) throw new AppError('not_found', { message: 'No such delivery' });
  const [d] = await deps.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhookId, hook.id)));
  if (!d) throw new AppError('not_found', { message: 'No such delivery' });
  // An attempt of this message still to come is sent now (pg-boss's job for a retry is kept for
  // its backoff time, so a new job runs it; the old one then finds nothing to do). One being
  // sent right now is left to finish.
  const [sending] = await deps.db
    .select()
    .from(webhookDeliveries)
    .where(
      and(eq(webhookDeliveries.messageId, d.messageId), eq(webhookDeliveries.status, 'sending')),
    );
  if (sending) return deliveryToV1(sending);
  const [pending] = await deps.db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: deps.now() })
    .where(
      and(
        eq(webhookDeliveries.messageId, d.messageId),
        inArray(webhookDeliveries.status, ['pending', 'waiting']),
      ),
    )
    .returning();
  if (pending) {
    await nudge(deps, [pending.id]);
    return deliveryToV1(pending);
  }
  const again = await sendNow(deps, hook, d.payload as Parameters<typeof sendNow>[2], {
    messageId: d.messageId,
    attempt: await nextAttemptNumber(deps.db, d.messageId),
  });
  return deliveryToV1(again);
}

/** Account deletion: no attempt may go out for a deleted account, even one already claimed. */
export async function disableUserWebhooks(db: Db, userId: string): Promise<void> {
  await db.update(webhooks).set({ isActive: false }).where(eq(webhooks.userId, userId));
}

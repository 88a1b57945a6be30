import type { TestModeStore } from '@schemacheck/stripe-test-mode';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { billingTestMode } from '../db/schema.ts';

// Where test mode keeps its Stripe account: one row of the app's own database, so that the
// account lasts exactly as long as the users whose subscriptions it holds (a database reset
// forgets both; a restart forgets neither). docs/decisions/127.

const ROW_ID = 'account';

export function testModeStore(db: Db): TestModeStore {
  return {
    async load() {
      const [row] = await db
        .select({ state: billingTestMode.state })
        .from(billingTestMode)
        .where(eq(billingTestMode.id, ROW_ID));
      return row?.state ?? null;
    },
    async save(state) {
      await db
        .insert(billingTestMode)
        .values({ id: ROW_ID, state, updatedAt: new Date() })
        .onConflictDoUpdate({
          target: billingTestMode.id,
          set: { state, updatedAt: new Date() },
        });
    },
  };
}

// node --import tsx e2e/support/set-usage.ts <username> <count>
// Sets a user's validations used this month (UTC) in the server's configured database, for the
// low-usage warning and the monthly-limit dialog. Run while the server is stopped (the embedded
// database allows one process): RunningServer.setUsage does that.
import { findUserByLogin } from '../../apps/server/src/auth/users.ts';
import { usageCounters } from '../../apps/server/src/db/schema.ts';
import { fail, openConfiguredDatabase } from '../../apps/server/src/startup.ts';
import { monthOf } from '../../apps/server/src/validation/quota.ts';

const [who, countText] = process.argv.slice(2);
const count = Number(countText);
if (!who || !Number.isInteger(count) || count < 0) fail('Usage: set-usage <username> <count>', 2);

const { database } = await openConfiguredDatabase();
try {
  await database.migrate();
  const user = await findUserByLogin(database.db, who);
  if (!user) fail(`No account "${who}"`);
  await database.db
    .insert(usageCounters)
    .values({ userId: user.id, month: monthOf(new Date()), count })
    .onConflictDoUpdate({
      target: [usageCounters.userId, usageCounters.month],
      set: { count },
    });
} finally {
  await database.close();
}

import { eq } from 'drizzle-orm';
import { users } from '../db/schema.ts';
import { fail } from '../startup.ts';
import { changeUser } from './operator.ts';

// npm run set-rate-limit -- <username-or-email> <requests-per-minute|plan>
// Gives an account a rate limit of its own, shared by all its API keys (an Enterprise contract's
// figure), or with `plan` returns it to its plan's (docs/decisions/083, 123). Takes effect on the
// next request.

const USAGE = 'Usage: npm run set-rate-limit -- <username-or-email> <requests-per-minute|plan>';
const MAX_PER_MINUTE = 1_000_000;

const [who, value] = process.argv.slice(2);
if (!who || !value || process.argv.length > 4) fail(USAGE, 2);
const perMinute = value === 'plan' ? null : Number(value);
if (
  perMinute !== null &&
  !(Number.isInteger(perMinute) && perMinute >= 1 && perMinute <= MAX_PER_MINUTE)
) {
  fail(
    `"${value}" is not a whole number of requests a minute from 1 to ${MAX_PER_MINUTE.toLocaleString('en-GB')}, nor "plan". ${USAGE}`,
    2,
  );
}

await changeUser('set-rate-limit', who, async (db, user) => {
  await db.update(users).set({ apiRateLimitPerMinute: perMinute }).where(eq(users.id, user.id));
  const before = user.apiRateLimitPerMinute ?? 'plan';
  return `${user.username} <${user.email}>: API rate limit ${before} → ${perMinute ?? 'plan'} (requests a minute, shared by the account's API keys)`;
});

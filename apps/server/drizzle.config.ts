import { defineConfig } from 'drizzle-kit';

// `npm run db:generate -w @schemacheck/server` writes a new SQL migration into drizzle/ from the
// schema. Commit it; the server applies pending migrations once at start (src/db/migrate.ts).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
  strict: true,
  verbose: true,
});

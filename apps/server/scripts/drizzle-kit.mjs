// Runs drizzle-kit with `drizzle-orm` resolved from this package.
//
// npm placed drizzle-orm under apps/server/node_modules while drizzle-kit sits at the root, and
// drizzle-kit checks its companion with a dynamic `import('drizzle-orm/version')` from its own
// folder, which fails ("Please install latest version of drizzle-orm"). This resolve hook sends
// every `drizzle-orm` import to the copy the server uses, so the schema and the kit see one copy.
// Usage: node scripts/drizzle-kit.mjs generate [--name x]   (npm run db:generate)
import { createRequire, register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
      const parent = ${JSON.stringify(new URL('../package.json', import.meta.url).href)};
      export async function resolve(specifier, context, next) {
        if (specifier === 'drizzle-orm' || specifier.startsWith('drizzle-orm/')) {
          return next(specifier, { ...context, parentURL: parent });
        }
        return next(specifier, context);
      }
    `),
);

// CommonJS requires inside drizzle-kit look in NODE_PATH as well.
process.env.NODE_PATH = new URL('../node_modules', import.meta.url).pathname;
(await import('node:module')).default._initPaths();

const require = createRequire(import.meta.url);
const kitDir = require.resolve('drizzle-kit').replace(/index\.js$/, '');
await import(kitDir + 'bin.cjs');

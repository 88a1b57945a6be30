import { readdirSync } from 'node:fs';

import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const WEB_PATTERNS = [{ group: ['node:*', '@schemacheck/server', '**/apps/server/**'] }];
const WEB_FEATURES = readdirSync(new URL('./apps/web/src/features/', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const SHARED = 'Shared folders import no feature and no page (docs/decisions/191).';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist.build-*/**',
      '**/dist.old-*/**',
      'data/**',
      'artifacts/**',
      '.bench/**',
      'apps/server/drizzle/**',
      // Generated from the OpenAPI document at build time (npm run generate -w packages/client).
      'packages/client/src/generated/**',
      // AssemblyScript, not TypeScript: its types (i32, v128) and builtins (load<u8>) are asc's,
      // which compiles and checks it (npm run build:wasm).
      'packages/engine/wasm/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The engine runs in browsers and workers too: nothing from Node, nothing of ours.
    files: ['packages/engine/src/**/*.ts'],
    ignores: ['packages/engine/src/**/*.test.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['node:*', 'fs', 'path', 'stream', 'buffer', 'crypto', '@schemacheck/*'] },
      ],
    },
  },
  {
    files: ['packages/contracts/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['node:*', '@schemacheck/*'] }] },
  },
  {
    // Stand-alone Node packages (decisions 195, 196): nothing of the apps; the test-mode Stripe
    // nothing of ours at all, node-platform only the engine's types.
    files: ['packages/stripe-test-mode/**/*.ts', 'packages/node-platform/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['@schemacheck/server', '@schemacheck/web', '**/apps/**'] },
      ],
    },
  },
  {
    files: ['packages/stripe-test-mode/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@schemacheck/*', '**/apps/**'] }] },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@schemacheck/web', '**/apps/web/**'] }],
    },
  },
  {
    // Routes only translate HTTP: the database is reached through each resource's module
    // (schemas/store.ts, api-keys/store.ts, auth/users.ts, …; docs/decisions/180). This block's
    // rule replaces the one above for these files, so it repeats the web app's patterns.
    files: ['apps/server/src/routes/**/*.ts', 'apps/server/src/api-v1/routes/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@schemacheck/web', '**/apps/web/**'] },
            {
              group: ['drizzle-orm', 'drizzle-orm/*', '**/db/*', 'pg', '@electric-sql/*'],
              message:
                'Routes do not touch the database: call the resource module that owns the table (docs/decisions/180).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-imports': ['error', { patterns: WEB_PATTERNS }] },
  },
  // Web feature boundaries (bulletproof-react's rule, docs/decisions/191): shared folders import
  // no feature; a feature imports shared folders and itself, never another feature nor app/;
  // pages (app/routes) compose features. These blocks replace the one above for their files, so
  // they repeat its patterns.
  {
    files: ['apps/web/src/{components,config,hooks,lib}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...WEB_PATTERNS,
            { group: ['@/features/*', '@/app/*', '**/features/*', '**/app/*'], message: SHARED },
          ],
        },
      ],
    },
  },
  ...WEB_FEATURES.flatMap((feature) =>
    [
      // Files in the feature's folders may go up one level, files at its root none.
      [`apps/web/src/features/${feature}/*/**/*.{ts,tsx}`, '../../*'],
      [`apps/web/src/features/${feature}/*.{ts,tsx}`, '../*'],
    ].map(([files, escape]) => ({
      files: [files],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              ...WEB_PATTERNS,
              {
                group: ['@/features/*', `!@/features/${feature}`, '@/app/*', escape],
                message: `A feature imports shared folders (@/components, @/lib, …) and itself; a page composes features (docs/decisions/191).`,
              },
            ],
          },
        ],
      },
    })),
  ),
);

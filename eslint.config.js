import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['node:*', '@schemacheck/server', '**/apps/server/**'] },
      ],
    },
  },
);

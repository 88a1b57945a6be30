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

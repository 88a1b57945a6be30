export * from './auth.ts';
export * from './billing.ts';
export * from './plans.ts';
export * from './workspace.ts';
export * from './api-v1/index.ts';
export * from './format.ts';
export * from './tiers.ts';

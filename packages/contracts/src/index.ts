export * from './auth.ts';
export * from './plans.ts';

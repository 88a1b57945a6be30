// The test-mode Stripe: a Stripe-protocol server on a loopback port (TestModeStripe), the hosted
// Checkout and billing-portal pages an app mounts (testModePages), and Stripe's test cards.
// See README.md.

export { API_VERSION, StripeApiError, TestAccount } from './account.ts';
export type { AccountState, PriceDef, StripeEvent } from './account.ts';
export { checkCard } from './cards.ts';
export type { CardCheck, CardDecline, CardInput, TestCard } from './cards.ts';
export { decodeForm } from './form.ts';
export { testModePages } from './pages.ts';
export { TestModeStripe } from './server.ts';
export type {
  DeliveredEvent,
  Deliver,
  DeliveryResult,
  TestModeOptions,
  TestModeStore,
} from './server.ts';

// Stripe's documented test card numbers (docs.stripe.com/testing) and what each does in the
// test-mode server: the numbers, codes and messages are Stripe's own, so a person who knows
// Stripe's test cards gets what they expect here.

export interface CardDecline {
  code: string;
  declineCode?: string;
  message: string;
}

export interface TestCard {
  brand: 'visa' | 'mastercard' | 'amex';
  /**
   * Attaching the card succeeds and so does the payment made with it on the Checkout page; every
   * later charge (a renewal, an upgrade) fails: 4000 0000 0000 0341, the card that produces a
   * failed renewal (docs/decisions/129).
   */
  chargesFail: boolean;
  /** Declined at once (checkout and card updates refuse it). */
  decline: CardDecline | null;
}

const DECLINED = 'Your card was declined.';

const CARDS: Record<string, TestCard> = {
  '4242424242424242': { brand: 'visa', chargesFail: false, decline: null },
  '4000056655665556': { brand: 'visa', chargesFail: false, decline: null },
  '5555555555554444': { brand: 'mastercard', chargesFail: false, decline: null },
  '378282246310005': { brand: 'amex', chargesFail: false, decline: null },
  '4000000000000002': {
    brand: 'visa',
    chargesFail: false,
    decline: { code: 'card_declined', declineCode: 'generic_decline', message: DECLINED },
  },
  '4000000000009995': {
    brand: 'visa',
    chargesFail: false,
    decline: {
      code: 'card_declined',
      declineCode: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    },
  },
  '4000000000009987': {
    brand: 'visa',
    chargesFail: false,
    decline: { code: 'card_declined', declineCode: 'lost_card', message: DECLINED },
  },
  '4000000000000069': {
    brand: 'visa',
    chargesFail: false,
    decline: { code: 'expired_card', message: 'Your card has expired.' },
  },
  '4000000000000127': {
    brand: 'visa',
    chargesFail: false,
    decline: { code: 'incorrect_cvc', message: "Your card's security code is incorrect." },
  },
  '4000000000000341': { brand: 'visa', chargesFail: true, decline: null },
};

/** The failure a charge to a card that attaches but cannot be charged gets. */
export const CHARGE_FAILED: CardDecline = {
  code: 'card_declined',
  declineCode: 'generic_decline',
  message: DECLINED,
};

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * The expiry as people type it into Stripe's card field: MM/YY, MM / YY, MMYY (the field adds
 * the slash as they type), or with a four-digit year (MM/YYYY, MMYYYY); a one-digit month needs
 * the slash (3/27). Null when it is not a month and a year.
 */
export function parseExpiry(text: string): { month: number; year: number } | null {
  const m =
    /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text) ??
    /^\s*(\d{2})(\d{2}|\d{4})\s*$/.exec(text);
  if (!m) return null;
  const month = Number(m[1]);
  const year = m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  return month >= 1 && month <= 12 ? { month, year } : null;
}

export interface CardInput {
  number: string;
  expiry: string;
  cvc: string;
}

export type CardCheck =
  | { ok: true; card: TestCard; last4: string; expMonth: number; expYear: number }
  | { ok: false; decline: CardDecline; field: 'number' | 'expiry' | 'cvc' };

/** Checks a card form the way Stripe's hosted pages do, then looks the number up. */
export function checkCard(input: CardInput, now: Date): CardCheck {
  const number = input.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) {
    return {
      ok: false,
      field: 'number',
      decline: { code: 'incorrect_number', message: 'Your card number is incorrect.' },
    };
  }
  const expiry = parseExpiry(input.expiry);
  if (!expiry) {
    return {
      ok: false,
      field: 'expiry',
      decline: { code: 'incomplete_expiry', message: "Your card's expiration date is incomplete." },
    };
  }
  const { month, year } = expiry;
  const endOfMonth = Date.UTC(year, month, 1);
  if (endOfMonth <= now.getTime()) {
    return {
      ok: false,
      field: 'expiry',
      decline: {
        code: 'invalid_expiry_year',
        message: "Your card's expiration date is in the past.",
      },
    };
  }
  if (!/^\d{3,4}$/.test(input.cvc.trim())) {
    return {
      ok: false,
      field: 'cvc',
      decline: { code: 'incomplete_cvc', message: "Your card's security code is incomplete." },
    };
  }
  const card = CARDS[number];
  if (!card) {
    return {
      ok: false,
      field: 'number',
      decline: {
        code: 'card_declined',
        declineCode: 'test_mode_live_card',
        message:
          'Your card was declined. Your request was in test mode, but used a non test card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
      },
    };
  }
  if (card.decline) return { ok: false, field: 'number', decline: card.decline };
  return { ok: true, card, last4: number.slice(-4), expMonth: month, expYear: year };
}

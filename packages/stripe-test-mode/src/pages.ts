import type { FastifyInstance, FastifyReply } from 'fastify';
import { StripeApiError } from './account.ts';
import { checkCard } from './cards.ts';
import type { TestModeStripe } from './server.ts';

// Test mode's hosted pages, served by the app under /test-mode/ (so they work wherever the app is
// reachable): the Checkout page and the billing portal (card and invoices, plus the test clock).
// Plain HTML forms, no script at all, so the app's strict Content-Security-Policy holds. They
// are capability URLs (the session id is the secret) and stand for Stripe's own pages, which is
// why they take no CSRF token (docs/decisions/070).

const esc = (v: unknown) =>
  String(v ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const gbp = (pence: number) => `${pence < 0 ? '−' : ''}£${(Math.abs(pence) / 100).toFixed(2)}`;

const day = (epoch: number) =>
  new Date(epoch * 1000).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#18181b;background:#f4f4f5}
.banner{background:#b45309;color:#fff;text-align:center;font-weight:600;padding:8px 12px;letter-spacing:.02em}
main{max-width:960px;margin:0 auto;padding:32px 20px;display:grid;gap:32px}
@media(min-width:800px){main.two{grid-template-columns:1fr 1fr;align-items:start}}
.card{background:#fff;border:1px solid #e4e4e7;border-radius:12px;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:0 0 12px}
.muted{color:#52525b;font-size:14px}.price{font-size:32px;font-weight:700;margin:8px 0 0}
label{display:block;font-weight:600;font-size:14px;margin:14px 0 6px}
input{width:100%;font:inherit;padding:10px 12px;border:1px solid #a1a1aa;border-radius:8px;background:#fff;color:#18181b}
input:focus{outline:3px solid #a5b4fc;border-color:#4f46e5}
.row{display:grid;grid-template-columns:1fr 1fr;gap:12px}
button{margin-top:20px;width:100%;font:inherit;font-weight:600;padding:12px;border:0;border-radius:8px;background:#4f46e5;color:#fff;cursor:pointer}
button:focus-visible{outline:3px solid #a5b4fc;outline-offset:2px}button.secondary{background:#fff;color:#3730a3;border:1px solid #a5b4fc}
.error{margin-top:16px;padding:10px 12px;border-radius:8px;background:#fef2f2;color:#991b1b;border:1px solid #fecaca}
.hint{margin-top:20px;font-size:13px;color:#52525b}.hint code{background:#f4f4f5;padding:1px 4px;border-radius:4px}
a{color:#3730a3}table{width:100%;border-collapse:collapse;font-size:14px}td,th{text-align:left;padding:6px 4px;border-bottom:1px solid #e4e4e7}
`;

function page(title: string, body: string, two = false): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${esc(title)}</title><style>${STYLE}</style></head><body><div class="banner" role="note">TEST MODE: no real payment is taken</div><main class="${two ? 'two' : ''}">${body}</main></body></html>`;
}

const TEST_CARDS_HINT = `<div class="hint"><p>Stripe's test cards work here:</p><ul>
<li><code>4242 4242 4242 4242</code> pays</li>
<li><code>4000 0000 0000 0002</code> is declined</li>
<li><code>4000 0000 0000 9995</code> has insufficient funds</li>
<li><code>4000 0000 0000 0341</code> pays here, then its renewals fail</li>
</ul><p>Use any future expiry date (MM / YY) and any three-digit CVC.</p></div>`;

function cardFields(values: Record<string, string>, error: string | null, field: string | null) {
  const invalid = (f: string) =>
    error && field === f ? ' aria-invalid="true" aria-describedby="card-error"' : '';
  return `<label for="number">Card number</label>
<input id="number" name="number" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" value="${esc(values.number)}" required${invalid('number')}>
<div class="row"><div><label for="expiry">Expiry (MM / YY)</label>
<input id="expiry" name="expiry" autocomplete="cc-exp" placeholder="MM / YY" value="${esc(values.expiry)}" required${invalid('expiry')}></div>
<div><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" value="${esc(values.cvc)}" required${invalid('cvc')}></div></div>
<label for="name">Name on card</label><input id="name" name="name" autocomplete="cc-name" value="${esc(values.name)}">
${error ? `<p class="error" id="card-error" role="alert">${esc(error)}</p>` : ''}`;
}

function html(reply: FastifyReply, status: number, body: string) {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(body);
}

function checkoutPage(
  testMode: TestModeStripe,
  id: string,
  values: Record<string, string> = {},
  error: string | null = null,
  field: string | null = null,
): { status: number; body: string } {
  const view = testMode.account.checkoutView(id);
  if (!view || view.status !== 'open') {
    return {
      status: 404,
      body: page(
        'Checkout expired',
        `<div class="card"><h1>This checkout is no longer open</h1><p class="muted">It was completed or has expired.</p><p><a href="/profile">Back to SchemaCheck</a></p></div>`,
      ),
    };
  }
  const body = `<section class="card" aria-labelledby="summary"><p class="muted"><a href="${esc(view.cancelUrl)}">← Back to SchemaCheck</a></p>
<h1 id="summary">Subscribe to ${esc(view.planName)}</h1><p class="price">${gbp(view.amount)} <span class="muted">per month</span></p>
<p class="muted">Billed monthly in pounds (GBP). Cancel any time from your profile.</p>
${view.email ? `<p class="muted">Account: ${esc(view.email)}</p>` : ''}</section>
<section class="card" aria-labelledby="pay"><h2 id="pay">Pay with card</h2>
<form method="post" action="/test-mode/checkout/${esc(id)}" novalidate>${cardFields(values, error, field)}
<button type="submit">Subscribe</button></form>${TEST_CARDS_HINT}</section>`;
  return { status: error ? 402 : 200, body: page('Checkout: test mode', body, true) };
}

function portalPage(
  testMode: TestModeStripe,
  id: string,
  error: string | null = null,
  notice: string | null = null,
) {
  const view = testMode.account.portalView(id);
  if (!view) {
    return {
      status: 404,
      body: page(
        'Billing',
        `<div class="card"><h1>This billing session has ended</h1><p><a href="/profile">Back to SchemaCheck</a></p></div>`,
      ),
    };
  }
  const subs = view.subscriptions
    .map(
      (s) =>
        `<p><strong>${esc(s.plan)}</strong>: ${esc(s.status.replace('_', ' '))}, ${s.cancelAtPeriodEnd ? 'ends' : 'renews'} on ${day(s.periodEnd)}</p>`,
    )
    .join('');
  const invoices = view.invoices.length
    ? `<table><thead><tr><th scope="col">Invoice</th><th scope="col">Date</th><th scope="col">Total</th><th scope="col">Status</th></tr></thead><tbody>${view.invoices
        .map(
          (i) =>
            `<tr><td>${esc(i.number)}</td><td>${day(i.created)}</td><td>${gbp(i.total)}</td><td>${esc(i.status)}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p class="muted">No invoices yet.</p>';
  const body = `<section class="card" aria-labelledby="billing"><p class="muted"><a href="${esc(view.returnUrl)}">← Back to SchemaCheck</a></p>
<h1 id="billing">Billing</h1><p class="muted">${esc(view.email ?? '')}</p>${subs || '<p>No active subscription.</p>'}
${view.balance < 0 ? `<p>Credit: ${gbp(-view.balance)} (used on your next invoices)</p>` : ''}
<h2>Invoices</h2>${invoices}
<h2 style="margin-top:24px">Test clock</h2><p class="muted">Move this customer's test clock to the end of the current period, as if a month had passed. Other customers' clocks do not move.</p>
<form method="post" action="/test-mode/portal/${esc(id)}/advance"><button class="secondary" type="submit">Advance to the end of the period</button></form></section>
<section class="card" aria-labelledby="card"><h2 id="card">Payment method</h2>
<p class="muted">${view.card ? `Current card: ${esc(view.card.brand)} ending ${esc(view.card.last4)}, expires ${view.card.expMonth}/${view.card.expYear}` : 'No card on file.'}</p>
${notice ? `<p class="muted" role="status">${esc(notice)}</p>` : ''}
<form method="post" action="/test-mode/portal/${esc(id)}/card" novalidate>${cardFields({}, error, 'number')}
<button type="submit">Update card</button></form>${TEST_CARDS_HINT}</section>`;
  return { status: error ? 402 : 200, body: page('Billing: test mode', body, true) };
}

function formValues(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  // Every key is set, whatever the body (a JSON `null` too): the card check reads them all.
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  for (const k of ['number', 'expiry', 'cvc', 'name']) {
    const v = fields[k];
    out[k] = typeof v === 'string' ? v.slice(0, 100) : '';
  }
  return out;
}

/** Registers the pages on the app (an encapsulated plugin: the form parser stays here). */
export function testModePages(testMode: TestModeStripe) {
  return async (app: FastifyInstance) => {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 8 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    const noCsrf = { config: { csrf: false } };
    const idOf = (params: unknown) => String((params as { id: string }).id).slice(0, 200);

    app.get('/test-mode/checkout/:id', async (request, reply) => {
      const { status, body } = checkoutPage(testMode, idOf(request.params));
      return html(reply, status, body);
    });

    app.post('/test-mode/checkout/:id', noCsrf, async (request, reply) => {
      const id = idOf(request.params);
      const values = formValues(request.body);
      // The card's expiry is checked against the customer's test clock, as Stripe would.
      const now = testMode.account.checkoutTime(id);
      if (now === null) return html(reply, 404, checkoutPage(testMode, id).body);
      const check = checkCard(values as never, new Date(now * 1000));
      if (!check.ok) {
        const { status, body } = checkoutPage(
          testMode,
          id,
          values,
          check.decline.message,
          check.field,
        );
        return html(reply, status, body);
      }
      try {
        const { redirect } = testMode.account.completeCheckout(id, {
          brand: check.card.brand,
          last4: check.last4,
          expMonth: check.expMonth,
          expYear: check.expYear,
          chargesFail: check.card.chargesFail,
        });
        await testMode.commit();
        return reply.redirect(redirect, 303);
      } catch (err) {
        if (!(err instanceof StripeApiError)) throw err;
        const { status, body } = checkoutPage(testMode, id, values, err.message, 'number');
        return html(reply, status, body);
      }
    });

    app.get('/test-mode/portal/:id', async (request, reply) => {
      const { status, body } = portalPage(testMode, idOf(request.params));
      return html(reply, status, body);
    });

    app.post('/test-mode/portal/:id/card', noCsrf, async (request, reply) => {
      const id = idOf(request.params);
      const values = formValues(request.body);
      const now = testMode.account.portalTime(id);
      if (now === null) return html(reply, 404, portalPage(testMode, id).body);
      const check = checkCard(values as never, new Date(now * 1000));
      if (!check.ok) {
        const { status, body } = portalPage(testMode, id, check.decline.message);
        return html(reply, status, body);
      }
      try {
        testMode.account.updateCard(id, {
          brand: check.card.brand,
          last4: check.last4,
          expMonth: check.expMonth,
          expYear: check.expYear,
          chargesFail: check.card.chargesFail,
        });
      } catch (err) {
        if (!(err instanceof StripeApiError)) throw err;
        return html(reply, 404, portalPage(testMode, id).body);
      }
      await testMode.commit();
      await testMode.settled();
      const { status, body } = portalPage(testMode, id, null, 'Your card was updated.');
      return html(reply, status, body);
    });

    app.post('/test-mode/portal/:id/advance', noCsrf, async (request, reply) => {
      const id = idOf(request.params);
      const view = testMode.account.portalView(id);
      const clock = testMode.account.portalClock(id);
      const now = testMode.account.portalTime(id);
      if (!view || !clock || now === null) return html(reply, 404, portalPage(testMode, id).body);
      // This customer's clock only: nobody else's period ends (docs/decisions/128).
      const next = Math.min(...view.subscriptions.map((s) => s.periodEnd));
      const target = Number.isFinite(next) ? Math.max(next, now) + 60 : now + 86_400;
      testMode.account.advanceClock(clock, target);
      await testMode.commit();
      await testMode.settled();
      return reply.redirect(`/test-mode/portal/${encodeURIComponent(id)}`, 303);
    });
  };
}

import { PLANS } from '@schemacheck/contracts';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';
import { SALES_EMAIL, SITE_NAME, SUPPORT_EMAIL } from '@/config/site';
import { LegalPage, type LegalSection } from '@/features/marketing/components/legal-page';
import {
  fileSizeText,
  orderedPlans,
  priceText,
  rowsText,
  validationsText,
} from '@/features/marketing/lib/plan-copy';
import { HOME_CRUMB, useMarketingMeta } from '@/features/marketing/lib/use-marketing-meta';
import { onDeviceStory } from '@/lib/plan-display';

const crumbs = [HOME_CRUMB, { label: 'Terms of Service', path: paths.terms }];
const mail = (address: string) => (
  <a href={`mailto:${address}`} className="text-indigo-700 underline">
    {address}
  </a>
);
const link = 'text-indigo-700 underline';
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

const sections: LegalSection[] = [
  {
    id: 'agreement',
    title: 'Agreement',
    body: (
      <p>
        These terms govern your use of {SITE_NAME} (“the service”), provided by {SITE_NAME} (“we”,
        “us”). By creating an account or using the service you accept them. If you use the service
        for an organisation, you accept them on its behalf and confirm you may do so.
      </p>
    ),
  },
  {
    id: 'eligibility',
    title: 'Eligibility and your account',
    body: (
      <>
        <p>You must be 18 or older to use {SITE_NAME}.</p>
        <p>
          Keep your password and API keys secret; you are responsible for what happens under your
          account. Tell us at once at {mail(SUPPORT_EMAIL)} if you believe your account has been
          misused.
        </p>
      </>
    ),
  },
  {
    id: 'plans',
    title: 'Plans and limits',
    body: (
      <>
        <p>The service is offered on these plans:</p>
        <ul>
          {orderedPlans().map((plan) => (
            <li key={plan.tier}>
              <strong className="font-semibold text-zinc-900">{plan.label}</strong> (
              {plan.pricePence === null ? 'price agreed with you' : `${priceText(plan)} a month`}
              ): {lowerFirst(validationsText(plan))}, {lowerFirst(fileSizeText(plan))},{' '}
              {lowerFirst(rowsText(plan))}
              {plan.limits.apiAccess ? ', REST API access' : ''}.
            </li>
          ))}
        </ul>
        <p>
          Monthly validation counts reset on the 1st of each calendar month (UTC); unused
          validations do not carry over. A file over your plan’s limits is refused without being
          counted. The {PLANS.free.label} plan needs no payment details and is also the trial of the
          service.
        </p>
        <p>{onDeviceStory(PLANS.free)}</p>
      </>
    ),
  },
  {
    id: 'billing',
    title: 'Billing, cancellation and refunds',
    body: (
      <ul>
        <li>Paid plans are billed monthly in advance, in pounds sterling (GBP).</li>
        <li>We do not yet offer annual billing.</li>
        <li>
          Payments are non-refundable, including for partly used months and unused validations,
          except where the law requires otherwise.
        </li>
        <li>
          You can cancel at any time from your Profile page. Your plan stays active until the end of
          the period you have paid for and then moves to the {PLANS.free.label} plan.
        </li>
        <li>
          We give at least 30 days’ notice by email of any change to the price of your plan; the new
          price applies from your first billing date after the notice ends.
        </li>
        <li>
          If a payment fails we may move your account to the {PLANS.free.label} plan until it is
          paid.
        </li>
      </ul>
    ),
  },
  {
    id: 'your-data',
    title: 'Your data',
    body: (
      <>
        <p>
          You keep all rights in the files and schemas you use with the service. You allow us to
          process them only to provide the service to you.
        </p>
        <p>
          Uploaded files are processed and deleted after validation; they are never stored
          permanently. Validation results (on plans with report export, also the full error report
          and the file’s valid and invalid rows) are retained for 90 days and then deleted. When you
          delete your account, your account data is removed within 30 days. The{' '}
          <Link to={paths.privacy} className={link}>
            Privacy Policy
          </Link>{' '}
          explains this in full.
        </p>
        <p>
          You must have the right to process the data in the files you validate, and you are
          responsible for the lawfulness of that processing.
        </p>
      </>
    ),
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable use',
    body: (
      <>
        <p>You agree not to:</p>
        <ul>
          <li>break the law or infringe anyone’s rights through the service;</li>
          <li>upload malware, or try to probe, overload or gain unauthorised access to it;</li>
          <li>get around plan limits, for example with several free accounts;</li>
          <li>
            resell the service or share API keys outside your organisation without our consent.
          </li>
        </ul>
        <p>We may suspend accounts that break these rules, telling you why where we can.</p>
      </>
    ),
  },
  {
    id: 'api',
    title: 'API',
    body: (
      <p>
        API access is part of the {PLANS.business.label} and {PLANS.enterprise.label} plans and is
        subject to the rate limits in the{' '}
        <Link to={paths.apiDocs} className={link}>
          API documentation
        </Link>
        . We keep version 1 of the API backwards compatible and announce breaking changes in
        advance.
      </p>
    ),
  },
  {
    id: 'availability',
    title: 'Availability and support',
    body: (
      <p>
        We work to keep the service available and fix faults promptly, but do not promise
        uninterrupted service except under a written Enterprise service level agreement. Support is
        by email: {PLANS.pro.label} customers get email support and {PLANS.business.label} customers
        priority support with a reply within 48 hours.
      </p>
    ),
  },
  {
    id: 'liability',
    title: 'Disclaimer and liability',
    body: (
      <>
        <p>
          The service reports whether files meet the rules of your schema; it does not guarantee
          that data which passes is correct or fit for any purpose. Check important data before you
          rely on it.
        </p>
        <p>
          Nothing in these terms limits liability that cannot be limited by law, such as for death
          or personal injury caused by negligence, or for fraud. Otherwise, we are not liable for
          indirect or consequential loss, or loss of profit, data or business, and our total
          liability in any 12 months is limited to the amount you paid us in that period.
        </p>
      </>
    ),
  },
  {
    id: 'termination',
    title: 'Ending these terms',
    body: (
      <p>
        You can stop using the service and delete your account at any time from the Danger Zone of
        your Profile page. We may end these terms with 30 days’ notice, or at once for serious
        breach. Sections on your data, liability and governing law survive.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    body: (
      <p>
        We may update these terms. We will post the new version here with a new “last updated” date
        and email you about material changes at least 30 days before they apply; continuing to use
        the service after that means you accept them.
      </p>
    ),
  },
  {
    id: 'law',
    title: 'Governing law and contact',
    body: (
      <p>
        These terms are governed by the law of England and Wales, and its courts have exclusive
        jurisdiction, without taking away any rights you have as a consumer where you live.
        Questions: {mail(SUPPORT_EMAIL)}; Enterprise agreements: {mail(SALES_EMAIL)}.
      </p>
    ),
  },
];

export function TermsRoute() {
  useMarketingMeta({
    title: 'Terms of Service',
    description:
      'The terms for using SchemaCheck: 18 or over, plans and limits, monthly billing in advance in GBP, non-refundable payments, 30 days’ notice of price changes, and how your data is handled.',
    keywords: ['SchemaCheck terms', 'terms of service', 'billing terms', 'refund policy'],
    path: paths.terms,
    crumbs,
  });
  return (
    <LegalPage
      title="Terms of Service"
      crumbs={crumbs}
      sections={sections}
      intro={
        <p>
          Please read these terms before you use {SITE_NAME}. The key points: you must be 18 or
          over; paid plans are billed monthly in advance in GBP and are non-refundable; we give 30
          days’ notice of price changes; files are deleted after validation and results kept 90
          days.
        </p>
      }
    />
  );
}

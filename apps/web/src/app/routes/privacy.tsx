import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';
import { SITE_NAME, SUPPORT_EMAIL } from '@/config/site';
import { LegalPage, type LegalSection } from '@/features/marketing/components/legal-page';
import { HOME_CRUMB, useMarketingMeta } from '@/features/marketing/lib/use-marketing-meta';

const crumbs = [HOME_CRUMB, { label: 'Privacy Policy', path: paths.privacy }];
const mail = (
  <a href={`mailto:${SUPPORT_EMAIL}`} className="text-indigo-700 underline">
    {SUPPORT_EMAIL}
  </a>
);

const sections: LegalSection[] = [
  {
    id: 'who-we-are',
    title: 'Who we are',
    body: (
      <p>
        {SITE_NAME} (“we”, “us”) provides an online service for validating CSV and JSON files
        against schemas. We are the controller of the personal data described in this policy. You
        can reach us about privacy at {mail}.
      </p>
    ),
  },
  {
    id: 'your-files',
    title: 'The files you validate',
    body: (
      <>
        <p>
          <strong className="font-semibold text-zinc-900">In-browser validators.</strong> On the CSV
          validator and JSON validator pages, your file is read and checked inside your browser. It
          is never uploaded to us and we never see its content.
        </p>
        <p>
          <strong className="font-semibold text-zinc-900">Workspace and API.</strong> When you
          validate a file in your dashboard or through the API, it is sent to us over an encrypted
          connection, processed and deleted when validation finishes (an Excel, gzip or zip file is
          written to a temporary file while it is read, and removed at once). We never keep the
          uploaded file itself.
        </p>
        <p>
          What we keep from a validation is its result: the file name, row and error counts, the
          schema used, the first errors found (which include the offending values, for example an
          invalid email address) and, on plans with report export, the full error report and the
          file’s rows split into those without errors and those with errors, for you to download.
          Results are kept for 90 days and then deleted automatically. Only you can see them.
        </p>
      </>
    ),
  },
  {
    id: 'what-we-collect',
    title: 'Other information we collect',
    body: (
      <ul>
        <li>Account details: your username, email address and a hash of your password.</li>
        <li>
          Schemas you save, API keys (stored as hashes, never in plain text) and webhook URLs.
        </li>
        <li>Usage: how many validations you ran each month, to apply your plan’s limits.</li>
        <li>
          Billing: your plan, subscription status and payment references. Card details are collected
          and held by our payment processor, Stripe; we never see or store card numbers.
        </li>
        <li>
          Technical data: IP address, browser type and request logs, used to keep the service secure
          (for example to limit repeated sign-in attempts).
        </li>
      </ul>
    ),
  },
  {
    id: 'how-we-use',
    title: 'How and why we use it',
    body: (
      <>
        <p>Under UK and EU data protection law (GDPR), we rely on these legal bases:</p>
        <ul>
          <li>
            Contract: to create your account, run validations, apply your plan, take payments and
            send service emails such as password resets.
          </li>
          <li>
            Legitimate interests: to secure the service, prevent abuse and fix faults, in ways that
            do not override your rights.
          </li>
          <li>Legal obligation: to keep billing records as tax law requires.</li>
        </ul>
        <p>We do not sell your data, use it for advertising, or train models on your files.</p>
      </>
    ),
  },
  {
    id: 'cookies',
    title: 'Cookies',
    body: (
      <p>
        We use only the cookies needed to run the service: a session cookie that keeps you signed in
        and a security token that protects your account against cross-site requests. We do not use
        advertising or third-party tracking cookies.
      </p>
    ),
  },
  {
    id: 'sharing',
    title: 'Who we share it with',
    body: (
      <>
        <p>We share personal data only with processors that help us run the service:</p>
        <ul>
          <li>Stripe, to process subscription payments.</li>
          <li>Our email provider, to deliver service emails.</li>
          <li>Our hosting provider, which runs our servers and database.</li>
        </ul>
        <p>
          Each processes data only on our instructions. We disclose data to authorities only when
          the law requires it.
        </p>
      </>
    ),
  },
  {
    id: 'retention',
    title: 'How long we keep it',
    body: (
      <ul>
        <li>Uploaded files: not kept; deleted as soon as validation finishes.</li>
        <li>
          Validation results, error reports and the valid and invalid rows of a file (plans with
          report export): 90 days.
        </li>
        <li>
          Account data: until you delete your account; then removed within 30 days of deletion.
        </li>
        <li>Billing records: as long as tax and accounting law requires.</li>
      </ul>
    ),
  },
  {
    id: 'security',
    title: 'Security',
    body: (
      <p>
        Connections are encrypted. Passwords are stored with a slow, salted hash (scrypt), and
        session tokens and API keys are stored only as hashes. Access to your results is limited to
        your account.
      </p>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your rights',
    body: (
      <>
        <p>
          You may ask for a copy of your data, its correction or deletion, restriction of or
          objection to its processing, and its portability. You can delete your account yourself
          from the Danger Zone of your Profile page. For anything else, email {mail}; we answer
          within one month.
        </p>
        <p>
          If you are unhappy with how we handle your data, you may complain to the UK Information
          Commissioner’s Office (ico.org.uk) or your local data protection authority.
        </p>
      </>
    ),
  },
  {
    id: 'age',
    title: 'Age',
    body: (
      <p>
        {SITE_NAME} is for people aged 18 or over. We do not knowingly collect data from anyone
        younger.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    body: (
      <p>
        We will post any change on this page with a new “last updated” date, and email account
        holders about significant changes. See also our{' '}
        <Link to={paths.terms} className="text-indigo-700 underline">
          Terms of Service
        </Link>
        .
      </p>
    ),
  },
];

export function PrivacyRoute() {
  useMarketingMeta({
    title: 'Privacy Policy',
    description:
      'How SchemaCheck handles your data: files processed in memory and deleted after validation, results kept 90 days, account data removed within 30 days of deletion.',
    keywords: ['SchemaCheck privacy', 'data processing', 'GDPR', 'file deletion'],
    path: paths.privacy,
    crumbs,
  });
  return (
    <LegalPage
      title="Privacy Policy"
      crumbs={crumbs}
      sections={sections}
      intro={
        <p>
          In short: files you check in the browser never leave your device; files you upload are
          processed in memory and deleted after validation; we keep validation results for 90 days
          and remove your account data within 30 days of you deleting your account.
        </p>
      }
    />
  );
}

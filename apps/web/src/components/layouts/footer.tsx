import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';
import { COPYRIGHT_YEAR, SITE_NAME, SUPPORT_EMAIL } from '@/config/site';

import { LogoMark } from './logo';

type FooterLink = { label: string; to: string } | { label: string; href: string };

const columns: { title: string; links: FooterLink[] }[] = [
  {
    title: 'Product',
    links: [
      { label: 'CSV Validator', to: paths.csvValidator },
      { label: 'JSON Validator', to: paths.jsonValidator },
      { label: 'CSV Schema Validator', to: paths.csvSchemaValidator },
      { label: 'JSON Schema Validator', to: paths.jsonSchemaValidator },
      { label: 'Schema Templates', to: paths.templates },
      { label: 'Validation API', to: paths.validationApi },
      { label: 'Pricing', to: paths.buyingGuide },
      { label: 'Compare', to: paths.compare },
    ],
  },
  {
    title: 'Support',
    links: [
      { label: 'Help Center', to: paths.help },
      { label: 'API Documentation', to: paths.apiDocs },
      { label: 'Fix CSV Upload Errors', to: paths.csvUploadErrors },
      { label: 'Fix JSON Validation Errors', to: paths.jsonValidationErrors },
      { label: 'Contact Support', href: `mailto:${SUPPORT_EMAIL}` },
    ],
  },
  {
    title: 'Company',
    links: [
      { label: 'Industries', to: paths.industries },
      { label: 'Blog', to: paths.help },
      { label: 'Privacy Policy', to: paths.privacy },
      { label: 'Terms of Service', to: paths.terms },
    ],
  },
];

const simpleLinks: FooterLink[] = [
  { label: 'Help', to: paths.help },
  { label: 'Blog', to: paths.help },
  { label: 'API Docs', to: paths.apiDocs },
  { label: 'Privacy', to: paths.privacy },
  { label: 'Terms', to: paths.terms },
  { label: 'Contact', href: `mailto:${SUPPORT_EMAIL}` },
];

const linkClass =
  'rounded-sm text-sm text-zinc-600 transition-colors hover:text-zinc-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2';

function FooterAnchor({ link }: { link: FooterLink }) {
  return 'to' in link ? (
    <Link to={link.to} className={linkClass}>
      {link.label}
    </Link>
  ) : (
    <a href={link.href} className={linkClass}>
      {link.label}
    </a>
  );
}

function Copyright() {
  return (
    <p className="text-sm text-zinc-600">
      © {COPYRIGHT_YEAR} {SITE_NAME}. All rights reserved.
    </p>
  );
}

/** Detailed (four columns: brand, Product, Support, Company) or simple (one link row). */
export function Footer({ variant = 'detailed' }: { variant?: 'detailed' | 'simple' }) {
  if (variant === 'simple') {
    return (
      <footer className="border-t border-zinc-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-6 sm:px-6 md:flex-row md:items-center md:justify-between lg:px-8">
          <Copyright />
          <nav aria-label="Footer">
            <ul className="flex flex-wrap gap-x-5 gap-y-2">
              {simpleLinks.map((link) => (
                <li key={link.label}>
                  <FooterAnchor link={link} />
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </footer>
    );
  }

  return (
    <footer className="border-t border-zinc-200 bg-zinc-50">
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:px-8">
        <div className="grid gap-10 sm:grid-cols-2 lg:grid-cols-[1.4fr_1fr_1fr_1fr]">
          <div className="max-w-xs">
            <div className="flex items-center gap-2.5">
              <LogoMark />
              <span className="text-[17px] font-semibold tracking-tight">{SITE_NAME}</span>
            </div>
            <p className="mt-4 text-sm leading-6 text-zinc-600">
              Validate CSV and JSON files against your own schema and see every error by row and
              column before you import.
            </p>
          </div>
          {columns.map((column) => (
            <nav key={column.title} aria-label={column.title}>
              <h2 className="text-sm font-semibold text-zinc-900">{column.title}</h2>
              <ul className="mt-4 flex flex-col gap-3">
                {column.links.map((link) => (
                  <li key={link.label}>
                    <FooterAnchor link={link} />
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <div className="mt-12 border-t border-zinc-200 pt-6">
          <Copyright />
        </div>
      </div>
    </footer>
  );
}

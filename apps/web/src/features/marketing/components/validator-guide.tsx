import type { FileType } from '@schemacheck/engine';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';

import type { EngineExample } from '../content/engine-examples';
import type { Faq } from '../lib/json-ld';
import { BeforeAfter } from './before-after';
import { FaqSection } from './faq-section';
import { CardGrid, Section } from './page-sections';
import { RuleTable } from './rule-table';

interface ValidatorGuideProps {
  fileType: FileType;
  example: EngineExample;
  exampleIntro: string;
  readsTitle: string;
  reads: readonly { title: string; text: string }[];
  faqs: readonly Faq[];
}

const link = 'font-medium text-indigo-700 hover:underline';

/** The guide content under an in-browser validator: what it reads and checks, an example, FAQ. */
export function ValidatorGuide({
  fileType,
  example,
  exampleIntro,
  readsTitle,
  reads,
  faqs,
}: ValidatorGuideProps) {
  const label = fileType.toUpperCase();
  return (
    <>
      <Section title={readsTitle} tinted>
        <CardGrid items={reads} />
      </Section>
      <Section
        title={`What the ${label} validator checks`}
        intro="Pick a type for each field and add the rules you need. Every rule below rejects the value shown with the message shown."
      >
        <RuleTable />
      </Section>
      <Section title="A real example" intro={exampleIntro} tinted>
        <BeforeAfter example={example} />
        <p className="mt-8 max-w-3xl text-[15px] leading-7 text-zinc-700">
          More problems and their fixes:{' '}
          <Link
            to={fileType === 'csv' ? paths.csvUploadErrors : paths.jsonValidationErrors}
            className={link}
          >
            {fileType === 'csv' ? 'Fix CSV upload errors' : 'Fix JSON validation errors'}
          </Link>
          . Ready-made schemas:{' '}
          <Link to={`${paths.templates}#${fileType}`} className={link}>
            {label} templates
          </Link>
          . Writing a schema for many files?{' '}
          <Link
            to={fileType === 'csv' ? paths.csvSchemaValidator : paths.jsonSchemaValidator}
            className={link}
          >
            {label} schema validation
          </Link>
          .
        </p>
      </Section>
      <FaqSection faqs={faqs} />
    </>
  );
}

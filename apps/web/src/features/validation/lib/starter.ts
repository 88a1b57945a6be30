import type { WebSchema } from '@schemacheck/engine';

// Something to start from on an empty workspace: a small customer list with a few typical
// mistakes, and the schema it is meant to follow. Together they show every part of the results
// (counts, breakdown, filters, table) in one click, without the user's own data.

export const SAMPLE_FILE_NAME = 'sample-customers.csv';

export const SAMPLE_CSV = [
  'customer_id,email,signup_date,plan,monthly_spend',
  '1001,ada@example.com,2024-01-15,pro,49.00',
  '1002,grace.example.com,2024-02-30,free,0',
  '1003,linus@example.com,2024-03-02,business,129.5',
  '1003,margaret@example.com,2024-03-09,team,19.99',
  '1005,,2024-04-11,free,-5',
  '1006,tim@example.com,11/04/2024,pro,49.00',
  '1007,barbara@example.com,2024-05-20,pro,49.00',
  '',
].join('\n');

export const STARTER_SCHEMA: WebSchema = {
  name: 'Customers',
  fileType: 'csv',
  fields: [
    { name: 'customer_id', type: 'integer', required: true, validation: { unique: true } },
    { name: 'email', type: 'email', required: true, validation: {} },
    { name: 'signup_date', type: 'date', required: true, validation: { format: 'YYYY-MM-DD' } },
    {
      name: 'plan',
      type: 'enum',
      required: true,
      validation: { values: ['free', 'pro', 'business'] },
    },
    {
      name: 'monthly_spend',
      type: 'number',
      required: false,
      validation: { minValue: 0, precision: 2 },
    },
  ],
  orderMatters: false,
  additionalColumns: false,
};

export function sampleFile(): File {
  return new File([SAMPLE_CSV], SAMPLE_FILE_NAME, { type: 'text/csv' });
}

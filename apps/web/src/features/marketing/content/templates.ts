// The schema templates of /templates. Each one is a schema in the form the validators import,
// plus a small sample file under apps/web/public/templates/ with deliberate mistakes whose exact
// errors are listed here (the engine's marketing-examples test checks them). No imports: the
// engine's test reads this file.
import type { ExampleIssue, ExampleSchema } from './engine-examples.ts';

export interface SchemaTemplate {
  id: string;
  title: string;
  summary: string;
  /** Who uses it; the industries page links here by id. */
  audience: string;
  schema: ExampleSchema;
  /** Root-relative URL of the sample file (served from apps/web/public). */
  sampleUrl: string;
  /** Exactly what the validator reports for the sample file. */
  sampleErrors: ExampleIssue[];
}

export const schemaTemplates: SchemaTemplate[] = [
  {
    id: 'product-feed',
    title: 'E-commerce product feed',
    summary:
      'Unique SKUs, positive prices with two decimals and whole-number stock before a feed goes to a marketplace or shop import.',
    audience: 'E-commerce sellers',
    schema: {
      name: 'Product feed',
      fileType: 'csv',
      fields: [
        {
          name: 'sku',
          type: 'string',
          required: true,
          validation: { pattern: '^[A-Z0-9-]{3,32}$', unique: true },
        },
        {
          name: 'product_name',
          type: 'string',
          required: true,
          validation: { minLength: 2, maxLength: 150 },
        },
        {
          name: 'price',
          type: 'number',
          required: true,
          validation: { minValue: 0.01, precision: 2 },
        },
        { name: 'category', type: 'string', required: true, validation: { maxLength: 100 } },
        { name: 'stock_quantity', type: 'integer', required: true, validation: { minValue: 0 } },
      ],
    },
    sampleUrl: '/templates/product-feed.csv',
    sampleErrors: [
      {
        row: 4,
        field: 'price',
        code: 'precision',
        message: 'Must have at most 2 decimal places',
        value: '7.499',
      },
      {
        row: 5,
        field: 'sku',
        code: 'unique',
        message: 'Duplicate value; first seen in row 2',
        value: 'TEE-BLK-M',
      },
      {
        row: 5,
        field: 'stock_quantity',
        code: 'minimum',
        message: 'Must be at least 0',
        value: '-2',
      },
    ],
  },
  {
    id: 'transactions',
    title: 'Financial transactions',
    summary:
      'Transaction IDs like TXN plus six digits, ISO dates, two-decimal amounts and a fixed set of categories for accounting imports.',
    audience: 'Finance and accounting',
    schema: {
      name: 'Transactions',
      fileType: 'csv',
      fields: [
        {
          name: 'transaction_id',
          type: 'string',
          required: true,
          validation: { pattern: '^TXN[0-9]{6}$', unique: true },
        },
        { name: 'date', type: 'date', required: true, validation: { format: 'YYYY-MM-DD' } },
        { name: 'amount', type: 'number', required: true, validation: { precision: 2 } },
        {
          name: 'category',
          type: 'enum',
          required: true,
          validation: { values: ['Income', 'Expense', 'Transfer'] },
        },
        { name: 'description', type: 'string', required: false, validation: { maxLength: 200 } },
      ],
    },
    sampleUrl: '/templates/transactions.csv',
    sampleErrors: [
      {
        row: 3,
        field: 'date',
        code: 'type',
        message: 'Must be a date in the format YYYY-MM-DD',
        value: '14/03/2024',
      },
      {
        row: 4,
        field: 'category',
        code: 'enum',
        message: 'Must be one of: Income, Expense, Transfer',
        value: 'Refund',
      },
    ],
  },
  {
    id: 'contacts',
    title: 'CRM contacts',
    summary:
      'Valid, unique email addresses, names of sensible length and phone numbers in international format before a CRM import.',
    audience: 'Sales and CRM teams',
    schema: {
      name: 'Contacts',
      fileType: 'csv',
      fields: [
        { name: 'email', type: 'email', required: true, validation: { unique: true } },
        {
          name: 'first_name',
          type: 'string',
          required: true,
          validation: { minLength: 1, maxLength: 100 },
        },
        {
          name: 'last_name',
          type: 'string',
          required: true,
          validation: { minLength: 1, maxLength: 100 },
        },
        {
          name: 'phone',
          type: 'string',
          required: false,
          validation: { pattern: '^\\+[1-9][0-9]{6,14}$' },
        },
        { name: 'company', type: 'string', required: false, validation: { maxLength: 150 } },
      ],
    },
    sampleUrl: '/templates/contacts.csv',
    sampleErrors: [
      {
        row: 3,
        field: 'email',
        code: 'type',
        message: 'Must be a valid email',
        value: 'tom.baker.example.com',
      },
      {
        row: 4,
        field: 'phone',
        code: 'pattern',
        message: 'Must match the pattern ^\\+[1-9][0-9]{6,14}$',
        value: '020 7946 0958',
      },
    ],
  },
  {
    id: 'event-data',
    title: 'Analytics event data',
    summary:
      'Positive user IDs, ISO 8601 timestamps and known event types before events are loaded into a warehouse.',
    audience: 'Data teams',
    schema: {
      name: 'Event data',
      fileType: 'csv',
      fields: [
        { name: 'user_id', type: 'integer', required: true, validation: { minValue: 1 } },
        {
          name: 'event_timestamp',
          type: 'date',
          required: true,
          validation: { format: 'YYYY-MM-DDTHH:mm:ssZ' },
        },
        {
          name: 'event_type',
          type: 'enum',
          required: true,
          validation: { values: ['page_view', 'sign_up', 'purchase', 'logout'] },
        },
        { name: 'metadata', type: 'string', required: false, validation: { maxLength: 2000 } },
      ],
    },
    sampleUrl: '/templates/event-data.csv',
    sampleErrors: [
      {
        row: 3,
        field: 'user_id',
        code: 'minimum',
        message: 'Must be at least 1',
        value: '0',
      },
      {
        row: 4,
        field: 'event_timestamp',
        code: 'type',
        message: 'Must be a date and time in the format YYYY-MM-DDTHH:mm:ssZ',
        value: '2024-03-15 09:12',
      },
    ],
  },
  {
    id: 'shipments',
    title: 'Logistics shipments',
    summary:
      'Tracking numbers, positive weights in kilograms, ISO country codes and dispatch dates before a carrier or WMS upload.',
    audience: 'Logistics and operations',
    schema: {
      name: 'Shipments',
      fileType: 'csv',
      fields: [
        {
          name: 'tracking_number',
          type: 'string',
          required: true,
          validation: { pattern: '^[A-Z0-9]{10,22}$', unique: true },
        },
        { name: 'dispatch_date', type: 'date', required: true },
        {
          name: 'weight_kg',
          type: 'number',
          required: true,
          validation: { minValue: 0.01, precision: 3 },
        },
        {
          name: 'destination_country',
          type: 'string',
          required: true,
          validation: { pattern: '^[A-Z]{2}$' },
        },
        { name: 'carrier', type: 'string', required: true, validation: { maxLength: 50 } },
      ],
    },
    sampleUrl: '/templates/shipments.csv',
    sampleErrors: [
      {
        row: 3,
        field: 'weight_kg',
        code: 'minimum',
        message: 'Must be at least 0.01',
        value: '0',
      },
      {
        row: 4,
        field: 'destination_country',
        code: 'pattern',
        message: 'Must match the pattern ^[A-Z]{2}$',
        value: 'France',
      },
    ],
  },
  {
    id: 'user-api',
    title: 'User API response',
    summary:
      'Positive integer IDs, valid emails, a known role and ISO 8601 creation times in a JSON array returned by an API.',
    audience: 'Engineering teams',
    schema: {
      name: 'User API',
      fileType: 'json',
      fields: [
        { name: 'id', type: 'integer', required: true, validation: { minValue: 1, unique: true } },
        { name: 'email', type: 'email', required: true },
        {
          name: 'name',
          type: 'string',
          required: true,
          validation: { minLength: 2, maxLength: 100 },
        },
        {
          name: 'role',
          type: 'enum',
          required: true,
          validation: { values: ['admin', 'editor', 'viewer'] },
        },
        {
          name: 'created_at',
          type: 'date',
          required: true,
          validation: { format: 'YYYY-MM-DDTHH:mm:ssZ' },
        },
      ],
      additionalProperties: false,
    },
    sampleUrl: '/templates/user-api.json',
    sampleErrors: [
      {
        row: 2,
        field: 'id',
        code: 'type',
        message: 'Must be a whole number, written without quotes',
        value: '2',
        path: '$[1].id',
      },
      {
        row: 3,
        field: 'role',
        code: 'enum',
        message: 'Must be one of: admin, editor, viewer',
        value: 'owner',
        path: '$[2].role',
      },
    ],
  },
  {
    id: 'app-config',
    title: 'Application config',
    summary:
      'A single JSON config object: semantic version, an https API URL, feature flags as true or false and a sane connection limit.',
    audience: 'Engineering teams',
    schema: {
      name: 'App config',
      fileType: 'json',
      fields: [
        {
          name: 'app_name',
          type: 'string',
          required: true,
          validation: { minLength: 2, maxLength: 60 },
        },
        {
          name: 'version',
          type: 'string',
          required: true,
          validation: { pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+$' },
        },
        {
          name: 'api_url',
          type: 'url',
          required: true,
          validation: { pattern: '^https://' },
        },
        { name: 'features.exports', type: 'boolean', required: true },
        { name: 'features.webhooks', type: 'boolean', required: true },
        {
          name: 'max_connections',
          type: 'integer',
          required: true,
          validation: { minValue: 1, maxValue: 1000 },
        },
      ],
    },
    sampleUrl: '/templates/app-config.json',
    sampleErrors: [
      {
        row: 1,
        field: 'version',
        code: 'pattern',
        message: 'Must match the pattern ^[0-9]+\\.[0-9]+\\.[0-9]+$',
        value: '2.4',
        path: '$.version',
      },
      {
        row: 1,
        field: 'max_connections',
        code: 'maximum',
        message: 'Must be at most 1000',
        value: '5000',
        path: '$.max_connections',
      },
    ],
  },
  {
    id: 'orders',
    title: 'E-commerce orders (JSON)',
    summary:
      'Order IDs, valid customer emails, positive totals in GBP with two decimals and known order statuses from a shop API export.',
    audience: 'E-commerce sellers',
    schema: {
      name: 'Orders',
      fileType: 'json',
      fields: [
        {
          name: 'order_id',
          type: 'string',
          required: true,
          validation: { pattern: '^ORD-[0-9]{6}$', unique: true },
        },
        { name: 'customer_email', type: 'email', required: true },
        {
          name: 'total_gbp',
          type: 'number',
          required: true,
          validation: { minValue: 0.01, precision: 2 },
        },
        {
          name: 'status',
          type: 'enum',
          required: true,
          validation: { values: ['pending', 'paid', 'shipped', 'cancelled'] },
        },
        { name: 'placed_at', type: 'date', required: true },
      ],
    },
    sampleUrl: '/templates/orders.json',
    sampleErrors: [
      {
        row: 2,
        field: 'customer_email',
        code: 'required',
        message: 'Is required',
        value: null,
        path: '$[1].customer_email',
      },
      {
        row: 3,
        field: 'total_gbp',
        code: 'type',
        message: 'Must be a number, written without quotes',
        value: '18.50',
        path: '$[2].total_gbp',
      },
    ],
  },
];

export function findTemplate(id: string | null | undefined): SchemaTemplate | undefined {
  return schemaTemplates.find((template) => template.id === id);
}

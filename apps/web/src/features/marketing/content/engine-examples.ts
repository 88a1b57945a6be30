// Every validation example the public site shows: the schema, the file before and after the fix,
// and exactly what the engine reports for the "before" file. Pages render these; the engine's
// test (packages/engine/test/marketing-examples.test.ts) runs each one, so a message on the site
// cannot drift from what the validator really says. No imports: the engine's test reads this file.

export type ExampleFieldType =
  'string' | 'integer' | 'number' | 'boolean' | 'date' | 'email' | 'url' | 'enum';

export interface ExampleField {
  name: string;
  type: ExampleFieldType;
  required: boolean;
  validation?: {
    minLength?: number;
    maxLength?: number;
    pattern?: string;
    minValue?: number;
    maxValue?: number;
    precision?: number;
    format?: string;
    values?: string[];
    unique?: boolean;
  };
}

export interface ExampleSchema {
  name: string;
  fileType: 'csv' | 'json';
  fields: ExampleField[];
  orderMatters?: boolean;
  additionalColumns?: boolean;
  additionalProperties?: boolean;
}

/** One issue as the engine reports it (value null when there is none). */
export interface ExampleIssue {
  row: number;
  field: string;
  code: string;
  message: string;
  value: string | null;
  path?: string;
}

export interface EngineExample {
  id: string;
  schema: ExampleSchema;
  /** The file as exported, with the problem. */
  before: string;
  /** How the file's bytes are written: UTF-8 (default) or Windows-1252 (a legacy export). */
  beforeEncoding?: 'utf-8' | 'windows-1252';
  /** The same file fixed: the engine reports nothing for it. */
  after: string;
  errors: ExampleIssue[];
  warnings?: { code: string; message: string }[];
}

const field = (
  name: string,
  type: ExampleFieldType,
  required: boolean,
  validation?: ExampleField['validation'],
): ExampleField => ({ name, type, required, ...(validation ? { validation } : {}) });

/** The product feed the landing page's report preview is built on. */
export const heroExample: EngineExample = {
  id: 'hero-product-feed',
  schema: {
    name: 'Product feed',
    fileType: 'csv',
    fields: [
      field('sku', 'string', true),
      field('price', 'number', true, { minValue: 0, precision: 2 }),
      field('contact_email', 'email', false),
      field('created_at', 'date', false),
    ],
  },
  before: [
    'sku,price,contact_email,created_at',
    'SKU-1001,24.99,orders@acme-outdoor.com,2024-03-15',
    'SKU-1002,19.999,orders@acme-outdoor.com,2024-03-15',
    ',12.50,orders@acme-outdoor.com,2024-03-16',
    'SKU-1004,8.00,jane.doe.acme-outdoor.com,2024-03-16',
    'SKU-1005,15.00,sales@acme-outdoor.com,15/03/2024',
    '',
  ].join('\n'),
  after: [
    'sku,price,contact_email,created_at',
    'SKU-1001,24.99,orders@acme-outdoor.com,2024-03-15',
    'SKU-1002,19.99,orders@acme-outdoor.com,2024-03-15',
    'SKU-1003,12.50,orders@acme-outdoor.com,2024-03-16',
    'SKU-1004,8.00,jane.doe@acme-outdoor.com,2024-03-16',
    'SKU-1005,15.00,sales@acme-outdoor.com,2024-03-15',
    '',
  ].join('\n'),
  errors: [
    {
      row: 3,
      field: 'price',
      code: 'precision',
      message: 'Must have at most 2 decimal places',
      value: '19.999',
    },
    { row: 4, field: 'sku', code: 'required', message: 'Is required', value: null },
    {
      row: 5,
      field: 'contact_email',
      code: 'type',
      message: 'Must be a valid email',
      value: 'jane.doe.acme-outdoor.com',
    },
    {
      row: 6,
      field: 'created_at',
      code: 'type',
      message: 'Must be a date in the format YYYY-MM-DD',
      value: '15/03/2024',
    },
  ],
};

/** The CSV upload errors guide: one example per card. */
export const csvGuideExamples = {
  headers: {
    id: 'csv-headers',
    schema: {
      name: 'Contacts',
      fileType: 'csv',
      fields: [
        field('email', 'email', true),
        field('first_name', 'string', true),
        field('last_name', 'string', true),
      ],
      additionalColumns: false,
    },
    before: 'E-mail,first_name,last_name\nava@northwind.co.uk,Ava,Patel\n',
    after: 'email,first_name,last_name\nava@northwind.co.uk,Ava,Patel\n',
    errors: [
      {
        row: 1,
        field: 'E-mail',
        code: 'unexpected_column',
        message: "Unexpected column 'E-mail'",
        value: 'E-mail',
      },
      {
        row: 1,
        field: 'email',
        code: 'missing_column',
        message: "Column 'email' is missing",
        value: null,
      },
    ],
  },
  quotes: {
    id: 'csv-quotes',
    schema: {
      name: 'Products',
      fileType: 'csv',
      fields: [
        field('sku', 'string', true),
        field('product_name', 'string', true),
        field('price', 'number', true),
      ],
    },
    before: 'sku,product_name,price\nDESK-01,Desk, oak,120.00\n',
    after: 'sku,product_name,price\nDESK-01,"Desk, oak",120.00\n',
    errors: [
      {
        row: 2,
        field: '',
        code: 'extra_cells',
        message: 'Row has 4 cells but the header has 3',
        value: null,
      },
      { row: 2, field: 'price', code: 'type', message: 'Must be a number', value: ' oak' },
    ],
  },
  encoding: {
    id: 'csv-encoding',
    schema: {
      name: 'Products',
      fileType: 'csv',
      fields: [field('sku', 'string', true), field('product_name', 'string', true)],
    },
    before: 'sku,product_name\nMUG-07,Café mug\n',
    beforeEncoding: 'windows-1252',
    after: 'sku,product_name\nMUG-07,Café mug\n',
    errors: [],
    warnings: [
      {
        code: 'encoding',
        message:
          'The file was read as Windows-1252 (detected from bytes that are not valid UTF-8); save it as UTF-8 to be sure',
      },
    ],
  },
  types: {
    id: 'csv-types',
    schema: {
      name: 'Transactions',
      fileType: 'csv',
      fields: [
        field('transaction_id', 'string', true),
        field('date', 'date', true),
        field('amount', 'number', true, { precision: 2 }),
      ],
    },
    before: 'transaction_id,date,amount\nTXN004211,03/15/2024,"1,250.00"\n',
    after: 'transaction_id,date,amount\nTXN004211,2024-03-15,1250.00\n',
    errors: [
      {
        row: 2,
        field: 'date',
        code: 'type',
        message: 'Must be a date in the format YYYY-MM-DD',
        value: '03/15/2024',
      },
      { row: 2, field: 'amount', code: 'type', message: 'Must be a number', value: '1,250.00' },
    ],
  },
} satisfies Record<string, EngineExample>;

const userSchema = (additionalProperties: boolean): ExampleSchema => ({
  name: 'Users',
  fileType: 'json',
  fields: [
    field('id', 'integer', true, { minValue: 1 }),
    field('email', 'email', true),
    field('role', 'enum', true, { values: ['admin', 'editor', 'viewer'] }),
  ],
  additionalProperties,
});

/** The JSON validation errors guide: one example per error kind. */
export const jsonGuideExamples = {
  parse: {
    id: 'json-parse',
    schema: userSchema(true),
    before: '[\n  {"id": 1, "email": "ava@northwind.co.uk", "role": "admin",}\n]\n',
    after: '[\n  {"id": 1, "email": "ava@northwind.co.uk", "role": "admin"}\n]\n',
    errors: [
      {
        row: 1,
        field: '',
        code: 'parse_error',
        message:
          "Invalid JSON at line 2, column 61: expected a property name after ',' (trailing commas are not allowed)",
        value: null,
        path: '$[0]',
      },
    ],
  },
  types: {
    id: 'json-types',
    schema: userSchema(true),
    before: '[\n  {"id": "42", "email": "ava@northwind.co.uk", "role": "admin"}\n]\n',
    after: '[\n  {"id": 42, "email": "ava@northwind.co.uk", "role": "admin"}\n]\n',
    errors: [
      {
        row: 1,
        field: 'id',
        code: 'type',
        message: 'Must be a whole number, written without quotes',
        value: '42',
        path: '$[0].id',
      },
    ],
  },
  required: {
    id: 'json-required',
    schema: userSchema(true),
    before: '[\n  {"id": 7, "role": "viewer"}\n]\n',
    after: '[\n  {"id": 7, "email": "li.wei@northwind.co.uk", "role": "viewer"}\n]\n',
    errors: [
      {
        row: 1,
        field: 'email',
        code: 'required',
        message: 'Is required',
        value: null,
        path: '$[0].email',
      },
    ],
  },
  additional: {
    id: 'json-additional',
    schema: userSchema(false),
    before:
      '[\n  {"id": 9, "email": "sam@northwind.co.uk", "role": "editor", "nickname": "Sam"}\n]\n',
    after: '[\n  {"id": 9, "email": "sam@northwind.co.uk", "role": "editor"}\n]\n',
    errors: [
      {
        row: 1,
        field: 'nickname',
        code: 'additional_property',
        message: "Unexpected property 'nickname'",
        value: 'Sam',
        path: '$[0].nickname',
      },
    ],
  },
} satisfies Record<string, EngineExample>;

/** The landing page's example schemas: one rule each and a value it rejects. */
export const schemaShowcase = {
  productFeed: {
    id: 'showcase-product-feed',
    schema: {
      name: 'Product feed',
      fileType: 'csv',
      fields: [
        field('sku', 'string', true, { pattern: '^[A-Z]{3}-[0-9]{4}$', unique: true }),
        field('price', 'number', true, { minValue: 0.01, precision: 2 }),
        field('stock_quantity', 'integer', true, { minValue: 0 }),
      ],
    },
    before: 'sku,price,stock_quantity\nTEE-0001,14.99,-3\n',
    after: 'sku,price,stock_quantity\nTEE-0001,14.99,0\n',
    errors: [
      {
        row: 2,
        field: 'stock_quantity',
        code: 'minimum',
        message: 'Must be at least 0',
        value: '-3',
      },
    ],
  },
  transactions: {
    id: 'showcase-transactions',
    schema: {
      name: 'Bank transactions',
      fileType: 'csv',
      fields: [
        field('transaction_id', 'string', true, { pattern: '^TXN[0-9]{6}$' }),
        field('date', 'date', true),
        field('category', 'enum', true, { values: ['Income', 'Expense', 'Transfer'] }),
      ],
    },
    before: 'transaction_id,date,category\nTXN000381,2024-02-30,Expense\n',
    after: 'transaction_id,date,category\nTXN000381,2024-02-29,Expense\n',
    errors: [
      {
        row: 2,
        field: 'date',
        code: 'type',
        message: 'Not a real date: that day does not exist',
        value: '2024-02-30',
      },
    ],
  },
  userApi: {
    id: 'showcase-user-api',
    schema: {
      name: 'User API response',
      fileType: 'json',
      fields: [
        field('id', 'integer', true, { minValue: 1 }),
        field('email', 'email', true),
        field('role', 'enum', true, { values: ['admin', 'editor', 'viewer'] }),
      ],
    },
    // One property a line: in a narrow card the rejected value is on screen, not scrolled off.
    before:
      '[\n  {\n    "id": 12,\n    "email": "li.wei@northwind.co.uk",\n    "role": "owner"\n  }\n]\n',
    after:
      '[\n  {\n    "id": 12,\n    "email": "li.wei@northwind.co.uk",\n    "role": "admin"\n  }\n]\n',
    errors: [
      {
        row: 1,
        field: 'role',
        code: 'enum',
        message: 'Must be one of: admin, editor, viewer',
        value: 'owner',
        path: '$[0].role',
      },
    ],
  },
} satisfies Record<string, EngineExample>;

/** Every example above, for the test that runs them all. */
export const allEngineExamples: EngineExample[] = [
  heroExample,
  ...Object.values(csvGuideExamples),
  ...Object.values(jsonGuideExamples),
  ...Object.values(schemaShowcase),
];

/** The JSON Schema the JSON schema validator page shows; it imports with no warning. */
export const exampleJsonSchema = `{
  "type": "object",
  "required": ["id", "email", "role"],
  "additionalProperties": false,
  "properties": {
    "id": { "type": "integer", "minimum": 1 },
    "email": { "type": "string", "format": "email" },
    "role": { "enum": ["admin", "editor", "viewer"] },
    "created_at": { "type": "string", "format": "date-time" }
  }
}`;

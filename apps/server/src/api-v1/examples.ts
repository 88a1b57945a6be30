// Examples for the OpenAPI document (docs/decisions/139): SDK generators and API explorers show
// them, and a reader sees a real answer beside each schema. One place for all of them, keyed by
// operationId; openapi.ts puts them into the document. apps/server/test/api-openapi-clients.test.ts
// checks that every operation has one and that each is valid against its own schema, so an
// example cannot drift from the contract.

const SCHEMA_ID = '3f6c2a9e-8d41-4b7a-9c55-0e2d7f1a6b34';
const JOB_ID = '8b1e4c7d-2f90-4a63-b5d8-71c9e0a2f4d6';
const REPORT_ID = 'c0d4e8f2-5a17-4b9c-8e63-2d1f7a9b0c45';
const WEBHOOK_ID = '5e2a9c1b-7d34-4f86-a0b9-3c8e6d2f1a70';
const DELIVERY_ID = 'a7f3d1c9-0b2e-4d58-9a64-e1c8b5f20d39';
const AT = '2026-03-10T12:00:00.000Z';
const LATER = '2026-03-10T12:00:07.000Z';

const columns = [
  { name: 'sku', type: 'string', required: true, pattern: '^[A-Z]{3}-[0-9]{4}$' },
  { name: 'price', type: 'number', required: true, minValue: 0, precision: 2 },
  { name: 'email', type: 'email', required: false },
];

const storedColumns = [
  { name: 'sku', type: 'string', required: true, validation: { pattern: '^[A-Z]{3}-[0-9]{4}$' } },
  { name: 'price', type: 'number', required: true, validation: { minValue: 0, precision: 2 } },
  { name: 'email', type: 'email', required: false, validation: {} },
];

const schemaBody = {
  name: 'Products',
  type: 'csv',
  rules: { columns, additionalColumns: false },
};

const schema = {
  schema_id: SCHEMA_ID,
  name: 'Products',
  type: 'csv',
  rules: { columns: storedColumns, additionalColumns: false },
  created_at: AT,
  updated_at: AT,
};

const stats = { rows: 1250, valid_rows: 1247, invalid_rows: 3, bytes: 48_213 };

const job = {
  job_id: JOB_ID,
  status: 'completed',
  file_name: 'products.csv',
  file_size: 48_213,
  schema_id: SCHEMA_ID,
  progress: 1,
  rows_processed: 1250,
  estimated_seconds: 2,
  created_at: AT,
  started_at: AT,
  completed_at: LATER,
  result: {
    valid: false,
    error_count: 3,
    stats: { ...stats, validated_in_ms: 412 },
    report_id: REPORT_ID,
    report_url: `https://schemacheck.example/api/v1/reports/${REPORT_ID}`,
    warnings: [],
  },
  error: null,
  livemode: true,
};

const sampleError = {
  row: 4,
  column: 'price',
  code: 'minimum',
  message: 'Must be at least 0',
  value: '-3.50',
  severity: 'error',
};

const LIST_ID = '5b0e7c1d-93a4-4f8e-b2d6-1c7a9e3f4d20';
const listSummary = {
  list_id: LIST_ID,
  name: 'categories',
  value_count: 3,
  over_limit: false,
  created_at: AT,
  updated_at: AT,
};
const listValues = ['Income', 'Expense', 'Transfer'];
const listLimits = { values_per_list: 1_000_000, lists: 100 };

const webhook = {
  id: WEBHOOK_ID,
  url: 'https://hooks.example.com/schemacheck',
  events: ['job.completed', 'job.failed'],
  is_active: true,
  created_at: AT,
  failing_since: null,
  disabled_at: null,
  disabled_reason: null,
};

const delivery = {
  id: DELIVERY_ID,
  message_id: 'msg_2f1c9a7e5b3d',
  event: 'job.completed',
  attempt: 1,
  status: 'succeeded',
  response_status: 200,
  duration_ms: 84,
  error: null,
  response_excerpt: 'ok',
  created_at: LATER,
  next_attempt_at: null,
};

const list = { page: 1, limit: 20, total: 1, has_more: false };

export interface OperationExamples {
  /** The JSON request body, or the multipart form's fields (the file as its text). */
  request?: unknown;
  /** The JSON body an operation takes instead of its multipart form. */
  json?: unknown;
  /** Success bodies by status, and by content type where an operation has several. */
  responses: Record<number, unknown | { [contentType: string]: unknown }>;
  /** Path parameters, by name. */
  params?: Record<string, string>;
}

export const OPERATION_EXAMPLES: Record<string, OperationExamples> = {
  createSchema: {
    request: schemaBody,
    responses: {
      201: { schema_id: SCHEMA_ID, name: 'Products', type: 'csv', created_at: AT, warnings: [] },
    },
  },
  listSchemas: { responses: { 200: { data: [schema], ...list } } },
  getSchema: { params: { schema_id: SCHEMA_ID }, responses: { 200: schema } },
  replaceSchema: {
    params: { schema_id: SCHEMA_ID },
    request: schemaBody,
    responses: { 200: { ...schema, updated_at: LATER, warnings: [] } },
  },
  deleteSchema: { params: { schema_id: SCHEMA_ID }, responses: {} },
  listLists: { responses: { 200: { data: [listSummary], ...list, limits: listLimits } } },
  createList: {
    request: { name: 'categories', values: listValues },
    responses: { 201: listSummary },
  },
  uploadList: {
    request: { name: 'categories', file: 'Income\nExpense\nTransfer\n' },
    responses: { 200: listSummary, 201: listSummary },
  },
  getList: {
    params: { list: 'categories' },
    responses: { 200: { ...listSummary, values: listValues } },
  },
  replaceList: {
    params: { list: 'categories' },
    request: { values: [...listValues, 'Refund'] },
    responses: { 200: { ...listSummary, value_count: 4, updated_at: LATER } },
  },
  renameList: {
    params: { list: 'categories' },
    request: { name: 'ledger-categories' },
    responses: { 200: { ...listSummary, name: 'ledger-categories', updated_at: LATER } },
  },
  deleteList: { params: { list: 'categories' }, responses: {} },
  validateFile: {
    request: { file: 'sku,price,email\nABC-1234,9.99,ann@example.com\n' },
    responses: {
      200: {
        valid: false,
        error_count: 3,
        sample_errors: [sampleError],
        warning_count: 0,
        sample_warnings: [],
        stats: { rows: 1250, columns: 3, validated_in_ms: 412 },
        report_id: REPORT_ID,
        warnings: [],
        livemode: true,
      },
    },
  },
  createJob: {
    request: { file: 'sku,price,email\nABC-1234,9.99,ann@example.com\n' },
    json: { upload: true, filename: 'products.csv', size: 12_582_912 },
    responses: {
      201: {
        job_id: JOB_ID,
        status: 'awaiting_upload',
        part_size: 8_388_608,
        parts: [1, 2].map((n) => ({
          part_number: n,
          url: `https://schemacheck-uploads.s3.eu-west-1.amazonaws.com/${JOB_ID}.upload?partNumber=${n}&uploadId=2~Xk9f&X-Amz-Signature=…`,
        })),
        expires_at: '2026-03-10T18:00:00.000Z',
        complete_url: `https://schemacheck.example/api/v1/jobs/${JOB_ID}/complete`,
      },
      202: { job_id: JOB_ID, status: 'queued', estimated_seconds: 2 },
    },
  },
  completeJobUpload: {
    params: { job_id: JOB_ID },
    request: {
      parts: [
        { part_number: 1, etag: '"5d41402abc4b2a76b9719d911017c592"' },
        { part_number: 2, etag: '"7d793037a0760186574b0282f2f435e7"' },
      ],
    },
    responses: { 202: { job_id: JOB_ID, status: 'queued', estimated_seconds: 2 } },
  },
  listJobs: { responses: { 200: { data: [job], ...list } } },
  getJob: { params: { job_id: JOB_ID }, responses: { 200: job } },
  getReport: {
    params: { report_id: REPORT_ID },
    responses: {
      200: {
        'text/csv':
          'row,field,code,message,value,severity,suggestion\r\n4,price,minimum,Must be at least 0,"\'-3.50",error,\r\n',
        'application/json': {
          report_id: REPORT_ID,
          file_name: 'products.csv',
          file_type: 'csv',
          created_at: AT,
          valid: false,
          error_count: 1,
          stats,
          errors: [sampleError],
        },
      },
    },
  },
  getValidRows: {
    params: { report_id: REPORT_ID },
    responses: {
      200: {
        'text/csv': 'sku,price,email\r\nABC-1234,9.99,ann@example.com\r\n',
        'application/json': [{ sku: 'ABC-1234', price: 9.99, email: 'ann@example.com' }],
        'application/x-ndjson': '{"sku":"ABC-1234","price":9.99,"email":"ann@example.com"}\n',
      },
    },
  },
  getInvalidRows: {
    params: { report_id: REPORT_ID },
    responses: {
      200: {
        'text/csv':
          'sku,price,email,errors\r\nABC-0042,-3.50,bob@example.com,price: Must be at least 0\r\n',
        'application/json': [{ sku: 'ABC-0042', price: -3.5, email: 'bob@example.com' }],
        'application/x-ndjson': '{"sku":"ABC-0042","price":-3.50,"email":"bob@example.com"}\n',
      },
    },
  },
  getUsage: {
    responses: {
      200: {
        plan: 'business',
        validations: { used: 1234, limit: 50_000, remaining: 48_766, reset_date: AT },
        api: { calls: 2410, rows: 1_850_000, bytes: 73_400_320 },
        rate_limit: { limit: 600, window_seconds: 60 },
      },
    },
  },
  createWebhook: {
    request: { url: 'https://hooks.example.com/schemacheck', events: ['job.completed'] },
    responses: {
      201: {
        ...webhook,
        events: ['job.completed'],
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      },
    },
  },
  listWebhooks: { responses: { 200: { data: [webhook] } } },
  deleteWebhook: { params: { webhook_id: WEBHOOK_ID }, responses: {} },
  enableWebhook: { params: { webhook_id: WEBHOOK_ID }, responses: { 200: webhook } },
  testWebhook: {
    params: { webhook_id: WEBHOOK_ID },
    responses: {
      202: {
        ...delivery,
        event: 'webhook.test',
        status: 'pending',
        response_status: null,
        duration_ms: null,
        response_excerpt: null,
        next_attempt_at: LATER,
      },
    },
  },
  listWebhookDeliveries: {
    params: { webhook_id: WEBHOOK_ID },
    responses: { 200: { data: [delivery] } },
  },
  redeliverWebhook: {
    params: { webhook_id: WEBHOOK_ID, delivery_id: DELIVERY_ID },
    responses: {
      202: {
        ...delivery,
        attempt: 2,
        status: 'pending',
        response_status: null,
        duration_ms: null,
        response_excerpt: null,
        next_attempt_at: LATER,
      },
    },
  },
};

/** The bodies of the events in the document's `webhooks` section. */
export const EVENT_EXAMPLES: Record<string, unknown> = {
  'job.completed': {
    event: 'job.completed',
    timestamp: 1_773_144_007_000,
    livemode: true,
    data: {
      job_id: JOB_ID,
      schema_id: SCHEMA_ID,
      file_name: 'products.csv',
      result: { total_rows: 1250, valid_rows: 1247, invalid_rows: 3 },
      report_url: `https://schemacheck.example/api/v1/reports/${REPORT_ID}`,
    },
  },
  'job.failed': {
    event: 'job.failed',
    timestamp: 1_773_144_007_000,
    livemode: true,
    data: {
      job_id: JOB_ID,
      schema_id: null,
      file_name: 'products.csv',
      result: null,
      report_url: null,
      error: 'The file is not valid UTF-8 and could not be read.',
    },
  },
  'webhook.test': {
    event: 'webhook.test',
    timestamp: 1_773_144_007_000,
    data: { webhook_id: WEBHOOK_ID, message: 'A test event from SchemaCheck.' },
  },
};

/** The request id shown in error examples. */
export const EXAMPLE_REQUEST_ID = '0f9a6c3e-1b2d-4e5f-8a7b-9c0d1e2f3a4b';

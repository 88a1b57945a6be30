// The /api-docs sample of @schemacheck/client; packages/client/test/docs-sample.test.ts type-checks it
// against the client's sources, so the page never shows a call the client does not have.
export function clientSample(apiBase: string): string {
  return `import { openAsBlob } from 'node:fs';
import { createSchemaCheckClient, verifyWebhook } from '@schemacheck/client';

const sc = createSchemaCheckClient({
  apiKey: process.env.SCHEMACHECK_API_KEY!,
  baseUrl: '${apiBase}',
});

// Up to 5 MB at once; errors by row and column
const result = await sc.validateFile({
  file: { data: await openAsBlob('products.csv'), name: 'products.csv' },
  schemaId: process.env.SCHEMA_ID!,
});
console.log(result.valid, result.error_count, result.sample_errors[0]);

// Larger files: a job, polled until it ends
const job = await sc.runJob(
  { file: { data: await openAsBlob('big.csv'), name: 'big.csv' }, schemaId: process.env.SCHEMA_ID! },
  { onUpdate: (j) => console.log(j.status, j.progress) },
);

// Any operation, typed from the OpenAPI document
const { data: usage } = await sc.api.GET('/usage');

// In your webhook receiver: the raw body and the request's headers
const event = await verifyWebhook(process.env.WEBHOOK_SECRET!, rawBody, request.headers);`;
}

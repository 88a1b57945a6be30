// The code samples of /api-docs, one per endpoint in cURL, Python (requests) and JavaScript
// (Node 20+ fetch). They are run, not just shown: e2e/api-docs-samples.test.ts takes every
// sample from here, runs it with curl, python3 and node against a real server, and checks it
// works (apps/server/test/api-docs-samples.test.ts runs them too, without a browser). So a
// sample must be complete: it reads the key, ids and URLs from the environment
// (SCHEMACHECK_API_KEY, SCHEMA_ID, REPORT_ID, JOB_ID, WEBHOOK_URL) and the file from the working
// directory. `base` is absolute (the pre-render writes APP_URL's origin), so that a line copied
// from the page without scripts works as it is. This module imports nothing, so that the tests
// can load it as it is.

export type SampleLanguage = 'curl' | 'python' | 'javascript';

export const SAMPLE_LANGUAGES: { id: SampleLanguage; label: string }[] = [
  { id: 'curl', label: 'cURL' },
  { id: 'python', label: 'Python' },
  { id: 'javascript', label: 'JavaScript' },
];

export interface EndpointSample {
  /** The OpenAPI operationId it shows. */
  operationId: string;
  title: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  code: Record<SampleLanguage, string>;
}

const SCHEMA_JSON = `{
  "name": "Products",
  "type": "csv",
  "rules": {
    "columns": [
      {"name": "sku", "type": "string", "required": true, "pattern": "^[A-Z]{3}-[0-9]{4}$"},
      {"name": "price", "type": "number", "required": true, "minValue": 0},
      {"name": "email", "type": "email", "required": false}
    ],
    "additionalColumns": false
  }
}`;

/** The same schema as a Python literal. */
const PY_SCHEMA = SCHEMA_JSON.replace(/true/g, 'True').replace(/false/g, 'False');

/** Every sample, for the API at `base` (the site origin plus /api/v1). */
export function endpointSamples(base: string): EndpointSample[] {
  const pyHead = `import os
import requests

BASE = "${base}"
HEADERS = {"Authorization": f"Bearer {os.environ['SCHEMACHECK_API_KEY']}"}
`;
  const jsHead = `const BASE = '${base}';
const headers = { Authorization: \`Bearer \${process.env.SCHEMACHECK_API_KEY}\` };
`;
  return [
    {
      operationId: 'createSchema',
      title: 'Create a schema',
      method: 'POST',
      path: '/schemas',
      code: {
        curl: `curl -sS --fail-with-body -X POST "${base}/schemas" \\
  -H "Authorization: Bearer $SCHEMACHECK_API_KEY" \\
  -H "Content-Type: application/json" \\
  -H "Idempotency-Key: $(uuidgen 2>/dev/null || date +%s%N)" \\
  -d '${SCHEMA_JSON.replace(/\n\s*/g, ' ')}'`,
        python: `${pyHead}
schema = ${PY_SCHEMA}
response = requests.post(f"{BASE}/schemas", json=schema, headers=HEADERS, timeout=30)
response.raise_for_status()
print(response.json()["schema_id"])`,
        javascript: `${jsHead}
const schema = ${SCHEMA_JSON};
const response = await fetch(\`\${BASE}/schemas\`, {
  method: 'POST',
  headers: { ...headers, 'Content-Type': 'application/json' },
  body: JSON.stringify(schema),
});
if (!response.ok) throw new Error(await response.text());
console.log((await response.json()).schema_id);`,
      },
    },
    {
      operationId: 'listSchemas',
      title: 'List schemas',
      method: 'GET',
      path: '/schemas',
      code: {
        curl: `curl -sS --fail-with-body "${base}/schemas?page=1&limit=20" \\
  -H "Authorization: Bearer $SCHEMACHECK_API_KEY"`,
        python: `${pyHead}
response = requests.get(f"{BASE}/schemas", params={"page": 1, "limit": 20}, headers=HEADERS, timeout=30)
response.raise_for_status()
for schema in response.json()["data"]:
    print(schema["schema_id"], schema["name"])`,
        javascript: `${jsHead}
const response = await fetch(\`\${BASE}/schemas?page=1&limit=20\`, { headers });
if (!response.ok) throw new Error(await response.text());
const { data, total } = await response.json();
console.log(total, data.map((s) => s.name));`,
      },
    },
    {
      operationId: 'getSchema',
      title: 'Get a schema',
      method: 'GET',
      path: '/schemas/{schema_id}',
      code: {
        curl: `curl -sS --fail-with-body "${base}/schemas/$SCHEMA_ID" \\
  -H "Authorization: Bearer $SCHEMACHECK_API_KEY"`,
        python: `${pyHead}
response = requests.get(f"{BASE}/schemas/{os.environ['SCHEMA_ID']}", headers=HEADERS, timeout=30)
response.raise_for_status()
print(response.json()["rules"]["columns"])`,
        javascript: `${jsHead}
const response = await fetch(\`\${BASE}/schemas/\${process.env.SCHEMA_ID}\`, { headers });
if (!response.ok) throw new Error(await response.text());
console.log((await response.json()).rules.columns);`,
      },
    },
    {
      operationId: 'replaceSchema',
      title: 'Replace a schema',
      method: 'PUT',
      path: '/schemas/{schema_id}',
      code: {
        curl: `curl -sS --fail-with-body -X PUT "${base}/schemas/$SCHEMA_ID" \\
  -H "Authorization: Bearer $SCHEMACHECK_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '${SCHEMA_JSON.replace(/\n\s*/g, ' ')}'`,
        python: `${pyHead}
schema = ${PY_SCHEMA}
response = requests.put(f"{BASE}/schemas/{os.environ['SCHEMA_ID']}", json=schema, headers=HEADERS, timeout=30)
response.raise_for_status()
print(response.json()["updated_at"])`,
        javascript: `${jsHead}
const schema = ${SCHEMA_JSON};
const response = await fetch(\`\${BASE}/schemas/\${process.env.SCHEMA_ID}\`, {
  method: 'PUT',
  headers: { ...headers, 'Content-Type': 'application/json' },
  body: JSON.stringify(schema),
});
if (!response.ok) throw new Error(await response.text());
console.log((await response.json()).updated_at);`,
      },
    },
    {
      operationId: 'validateFile',
      title: 'Validate a file',
      method: 'POST',
      path: '/validate',
      code: {
        curl: `curl -sS --fail-with-body -X POST "${base}/validate?schema_id=$SCHEMA_ID" \\
  -H "Authorization: Bearer $SCHEMACHECK_API_KEY" \\
  -F "file=@products.csv"`,
        python: `${pyHead}
with open("products.csv", "rb") as f:
    response = requests.post(
        f"{BASE}/validate",
        params={"schema_id": os.environ["SCHEMA_ID"]},
        files={"file": ("products.csv", f, "text/csv")},
        headers=HEADERS,
        timeout=120,
    )
response.raise_for_status()
result = response.json()
print(result["valid"], result["error_count"], result["report_id"])`,
        javascript: `import { readFile } from 'node:fs/promises';

${jsHead}
const form = new FormData();
form.append('file', new Blob([await readFile('products.csv')]), 'products.csv');
const response = await fetch(\`\${BASE}/validate?schema_id=\${process.env.SCHEMA_ID}\`, {
  method: 'POST',
  headers,
  body: form,
});
if (!response.ok) throw new Error(await response.text());
const result = await response.json();
console.log(result.valid, result.error_count, result.report_id);`,
      },
    },
    {
      operationId: 'getReport',
      title: 'Download the full report, the valid rows and the invalid rows',
      method: 'GET',
      path: '/reports/{report_id}',
      code: {
        curl: `curl -sS --fail-with-body "${base}/reports/$REPORT_ID" \\
  -H "Authorization: Bearer $SCHEMACHECK_API_KEY" \\
  -o error-report.csv
for rows in valid invalid; do
  curl -sS --fail-with-body "${base}/reports/$REPORT_ID/$rows" \\
    -H "Authorization: Bearer $SCHEMACHECK_API_KEY" \\
    -o "$rows-rows.csv"
done
curl -sS --fail-with-body "${base}/reports/$REPORT_ID?format=json" \\
  -H "Authorization: Bearer $SCHEMACHECK_API_KEY"`,
        python: `${pyHead}
url = f"{BASE}/reports/{os.environ['REPORT_ID']}"
with requests.get(url, headers=HEADERS, stream=True, timeout=120) as response:
    response.raise_for_status()
    with open("error-report.csv", "wb") as out:
        for chunk in response.iter_content(chunk_size=65536):
            out.write(chunk)
for rows in ("valid", "invalid"):
    with requests.get(f"{url}/{rows}", headers=HEADERS, stream=True, timeout=120) as response:
        response.raise_for_status()
        with open(f"{rows}-rows.csv", "wb") as out:
            for chunk in response.iter_content(chunk_size=65536):
                out.write(chunk)
report = requests.get(url, params={"format": "json"}, headers=HEADERS, timeout=120).json()
print(report["error_count"], len(report["errors"]))`,
        javascript: `import { writeFile } from 'node:fs/promises';

${jsHead}
const url = \`\${BASE}/reports/\${process.env.REPORT_ID}\`;
const csv = await fetch(url, { headers });
if (!csv.ok) throw new Error(await csv.text());
await writeFile('error-report.csv', Buffer.from(await csv.arrayBuffer()));
for (const rows of ['valid', 'invalid']) {
  const response = await fetch(\`\${url}/\${rows}\`, { headers });
  if (!response.ok) throw new Error(await response.text());
  await writeFile(\`\${rows}-rows.csv\`, Buffer.from(await response.arrayBuffer()));
}
const report = await (await fetch(\`\${url}?format=json\`, { headers })).json();
console.log(report.error_count, report.errors.length);`,
      },
    },
    {
      operationId: 'createJob',
      title: 'Validate a large file as a job',
      method: 'POST',
      path: '/jobs',
      code: {
        curl: `curl -sS --fail-with-body -X POST "${base}/jobs?schema_id=$SCHEMA_ID" \\
  -H "Authorization: Bearer $SCHEMACHECK_API_KEY" \\
  -H "Idempotency-Key: $(uuidgen 2>/dev/null || date +%s%N)" \\
  -F "file=@products.csv"`,
        python: `${pyHead}
with open("products.csv", "rb") as f:
    response = requests.post(
        f"{BASE}/jobs",
        params={"schema_id": os.environ["SCHEMA_ID"]},
        files={"file": ("products.csv", f, "text/csv")},
        headers=HEADERS,
        timeout=600,
    )
response.raise_for_status()
print(response.json()["job_id"])`,
        javascript: `import { openAsBlob } from 'node:fs';

${jsHead}
const form = new FormData();
form.append('file', await openAsBlob('products.csv'), 'products.csv');
const response = await fetch(\`\${BASE}/jobs?schema_id=\${process.env.SCHEMA_ID}\`, {
  method: 'POST',
  headers,
  body: form,
});
if (!response.ok) throw new Error(await response.text());
console.log((await response.json()).job_id);`,
      },
    },
    {
      operationId: 'getJob',
      title: 'Wait for a job',
      method: 'GET',
      path: '/jobs/{job_id}',
      code: {
        curl: `while :; do
  job=$(curl -sS --fail-with-body "${base}/jobs/$JOB_ID" \\
    -H "Authorization: Bearer $SCHEMACHECK_API_KEY") || { echo "$job"; exit 1; }
  case "$job" in *'"status":"completed"'*|*'"status":"failed"'*) echo "$job"; break ;; esac
  sleep 2
done`,
        python: `import time
${pyHead}
while True:
    response = requests.get(f"{BASE}/jobs/{os.environ['JOB_ID']}", headers=HEADERS, timeout=30)
    response.raise_for_status()
    job = response.json()
    if job["status"] in ("completed", "failed"):
        break
    time.sleep(2)
print(job["status"], job["result"]["error_count"] if job["result"] else job["error"])`,
        javascript: `${jsHead}
let job;
for (;;) {
  const response = await fetch(\`\${BASE}/jobs/\${process.env.JOB_ID}\`, { headers });
  if (!response.ok) throw new Error(await response.text());
  job = await response.json();
  if (job.status === 'completed' || job.status === 'failed') break;
  await new Promise((resolve) => setTimeout(resolve, 2000));
}
console.log(job.status, job.result ? job.result.error_count : job.error);`,
      },
    },
    {
      operationId: 'createWebhook',
      title: 'Register a webhook',
      method: 'POST',
      path: '/webhooks',
      code: {
        curl: `curl -sS --fail-with-body -X POST "${base}/webhooks" \\
  -H "Authorization: Bearer $SCHEMACHECK_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d "{\\"url\\": \\"$WEBHOOK_URL\\", \\"events\\": [\\"job.completed\\", \\"job.failed\\"]}"`,
        python: `${pyHead}
webhook = {"url": os.environ["WEBHOOK_URL"], "events": ["job.completed", "job.failed"]}
response = requests.post(f"{BASE}/webhooks", json=webhook, headers=HEADERS, timeout=30)
response.raise_for_status()
created = response.json()
# The signing secret is shown once: store it where your receiver reads it.
print(created["id"], created["secret"])`,
        javascript: `${jsHead}
const webhook = { url: process.env.WEBHOOK_URL, events: ['job.completed', 'job.failed'] };
const response = await fetch(\`\${BASE}/webhooks\`, {
  method: 'POST',
  headers: { ...headers, 'Content-Type': 'application/json' },
  body: JSON.stringify(webhook),
});
if (!response.ok) throw new Error(await response.text());
const created = await response.json();
// The signing secret is shown once: store it where your receiver reads it.
console.log(created.id, created.secret);`,
      },
    },
    {
      operationId: 'getUsage',
      title: 'Check your usage',
      method: 'GET',
      path: '/usage',
      code: {
        curl: `curl -sS --fail-with-body "${base}/usage" \\
  -H "Authorization: Bearer $SCHEMACHECK_API_KEY"`,
        python: `${pyHead}
response = requests.get(f"{BASE}/usage", headers=HEADERS, timeout=30)
response.raise_for_status()
usage = response.json()["validations"]
print(usage["used"], usage["limit"], usage["reset_date"])`,
        javascript: `${jsHead}
const response = await fetch(\`\${BASE}/usage\`, { headers });
if (!response.ok) throw new Error(await response.text());
const { validations } = await response.json();
console.log(validations.used, validations.limit, validations.reset_date);`,
      },
    },
    {
      operationId: 'deleteSchema',
      title: 'Delete a schema',
      method: 'DELETE',
      path: '/schemas/{schema_id}',
      code: {
        curl: `curl -sS --fail-with-body -X DELETE "${base}/schemas/$SCHEMA_ID" \\
  -H "Authorization: Bearer $SCHEMACHECK_API_KEY"`,
        python: `${pyHead}
response = requests.delete(f"{BASE}/schemas/{os.environ['SCHEMA_ID']}", headers=HEADERS, timeout=30)
response.raise_for_status()
print(response.status_code)`,
        javascript: `${jsHead}
const response = await fetch(\`\${BASE}/schemas/\${process.env.SCHEMA_ID}\`, {
  method: 'DELETE',
  headers,
});
if (!response.ok) throw new Error(await response.text());
console.log(response.status);`,
      },
    },
  ];
}

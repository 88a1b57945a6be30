import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';

import { VERIFY_SAMPLES } from './verify-samples';

// The Webhooks section of /api-docs: events, the payload, the Standard Webhooks headers, retries
// and how to verify a delivery, with receivers in Python and JavaScript that a server test runs
// against real deliveries.

function Code({ children }: { children: string }) {
  return <code className="font-mono text-[13px] text-zinc-900">{children}</code>;
}

const PAYLOAD = `{
  "event": "job.completed",
  "timestamp": 1767225600000,
  "data": {
    "job_id": "0b9c6a1e-4d0f-4a57-9d55-0f1f3f0f9f0a",
    "schema_id": "5a3f2c1d-8e7b-4c6a-9f0e-1d2c3b4a5f6e",
    "file_name": "products.csv",
    "result": { "total_rows": 120000, "valid_rows": 119874, "invalid_rows": 126 },
    "report_url": "https://schemacheck.example/api/v1/reports/7d2e…"
  }
}`;

export function WebhooksSection() {
  return (
    <div className="grid grid-cols-1 gap-4 text-sm leading-6 text-zinc-700">
      <p>
        Files above the synchronous limits go to <Code>POST /jobs</Code>, which answers{' '}
        <Code>202</Code> with a <Code>job_id</Code> at once. Follow a job with{' '}
        <Code>{'GET /jobs/{job_id}'}</Code>, or register a webhook and be told when it ends:
        SchemaCheck posts <Code>job.completed</Code> or <Code>job.failed</Code> to your URL. Manage
        webhooks with <Code>POST /webhooks</Code> (<Code>url</Code>, <Code>events</Code>) or in your
        profile; the answer holds the signing secret (<Code>whsec_…</Code>) once.
      </p>
      <pre
        tabIndex={0}
        aria-label="A job.completed payload"
        className="code-block rounded-lg bg-zinc-900"
      >
        <code>{PAYLOAD}</code>
      </pre>
      <p>
        <Code>result</Code> and <Code>report_url</Code> are <Code>null</Code> on{' '}
        <Code>job.failed</Code>, which adds an <Code>error</Code>. Fetch the report with your API
        key. Every delivery is signed per Standard Webhooks: <Code>webhook-id</Code> (the same on
        every retry: use it to drop duplicates), <Code>webhook-timestamp</Code> (Unix seconds) and{' '}
        <Code>webhook-signature</Code>, <Code>v1,</Code> followed by the base64 HMAC-SHA256 of{' '}
        <Code>id.timestamp.body</Code> keyed with the base64-decoded part of the secret after{' '}
        <Code>whsec_</Code>. Verify against the raw body, and refuse timestamps more than five
        minutes away. The <Code>standardwebhooks</Code> libraries do all of it:{' '}
        <Code>new Webhook(secret).verify(body, headers)</Code>.
      </p>
      <p>
        Answer with any 2xx within 15 seconds. Anything else, a redirect included, is retried after
        5 seconds, 5 minutes, 30 minutes, 2, 5, 10 and 10 hours. Every attempt is listed under{' '}
        <Code>{'GET /webhooks/{webhook_id}/deliveries'}</Code>, and can be sent again. A URL that
        has failed every delivery for five days, or answers <Code>410</Code>, is switched off and
        your profile says so. URLs must be https and public: private and internal addresses are
        refused.
      </p>
      <Tabs defaultValue="python">
        <TabsList
          aria-label="Verifying a webhook: sample language"
          className="inline-grid h-9 grid-cols-2"
        >
          {VERIFY_SAMPLES.map((s) => (
            <TabsTrigger key={s.language} value={s.language} className="text-[13px]">
              {s.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {VERIFY_SAMPLES.map((s) => (
          <TabsContent key={s.language} value={s.language} className="mt-2">
            <pre
              tabIndex={0}
              aria-label={`A webhook receiver in ${s.label}`}
              className="code-block rounded-lg bg-zinc-900"
            >
              <code data-language={s.language}>{s.code}</code>
            </pre>
          </TabsContent>
        ))}
      </Tabs>
    </div>
  );
}

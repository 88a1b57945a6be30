// The "TypeScript client" section of /api-docs: what packages/client offers (its README has the
// rest), with one sample that uses the page's absolute API URL like the other samples.
import { clientSample } from './client-sample';

function Code({ children }: { children: string }) {
  return <code className="code-inline">{children}</code>;
}

export function ClientSection({ apiBase }: { apiBase: string }) {
  return (
    <>
      <p>
        <Code>@schemacheck/client</Code> is a typed TypeScript client for Node 20+, Deno, Bun and
        browsers. Its types are generated from the <Code>openapi.json</Code> document at build time,
        so every path, parameter and answer is checked by the compiler. It adds what the raw calls
        make tedious: <Code>validateFile</Code> and <Code>createJob</Code> build the upload,{' '}
        <Code>runJob</Code> and <Code>waitForJob</Code> poll a job until it ends (following{' '}
        <Code>Retry-After</Code>), and <Code>verifyWebhook</Code> checks a delivery’s Standard
        Webhooks signature and timestamp. Errors are thrown as <Code>SchemaCheckError</Code> with{' '}
        <Code>status</Code>, <Code>code</Code> and <Code>requestId</Code>.
      </p>
      <pre
        tabIndex={0}
        aria-label="TypeScript client example"
        className="code-block rounded-lg bg-zinc-900"
      >
        <code>{clientSample(apiBase)}</code>
      </pre>
      <p>
        For pipelines without code, the <Code>schemacheck</Code> command line checks files on your
        own machine (<Code>npx schemacheck validate data.csv --schema schema.json</Code>), also as a
        GitHub Action and a pre-commit hook.
      </p>
    </>
  );
}

// The Webhooks section of /api-docs. Webhooks come with asynchronous validation jobs; until
// those are documented here, the section says so plainly.

export function WebhooksSection() {
  return (
    <div className="grid gap-3 text-sm leading-6 text-zinc-700">
      <p>
        Webhooks tell your systems when an asynchronous validation job finishes (
        <code className="font-mono text-[13px]">job.completed</code>,{' '}
        <code className="font-mono text-[13px]">job.failed</code>), so a pipeline need not poll.
      </p>
      <p>
        They arrive together with asynchronous jobs for files above the synchronous limits. Until
        then, validate files with <code className="font-mono text-[13px]">POST /validate</code>{' '}
        above, which answers with the result directly.
      </p>
    </div>
  );
}

import type { EngineExample } from '../content/engine-examples';
import { CodeBlock } from './code-block';
import { IssueList } from './issue-list';

/** One problem: the file before, what SchemaCheck reports for it, and the fixed file. */
export function BeforeAfter({ example }: { example: EngineExample }) {
  const ext = example.schema.fileType;
  return (
    <div className="grid min-w-0 gap-4">
      <div className="grid min-w-0 gap-4 md:grid-cols-2">
        <CodeBlock
          code={example.before.trimEnd()}
          title={`Before: ${example.id.replace(/^(csv|json)-/, '')}.${ext}${example.beforeEncoding === 'windows-1252' ? ' (saved as Windows-1252)' : ''}`}
          tone="bad"
        />
        <CodeBlock
          code={example.after.trimEnd()}
          title={`After: fixed${example.beforeEncoding === 'windows-1252' ? ', saved as UTF-8' : ''}`}
          tone="good"
        />
      </div>
      <div className="min-w-0">
        <p className="mb-2 text-sm font-medium text-zinc-900">
          What SchemaCheck reports for “before”
        </p>
        <IssueList issues={example.errors} warnings={example.warnings} fileType={ext} />
      </div>
    </div>
  );
}

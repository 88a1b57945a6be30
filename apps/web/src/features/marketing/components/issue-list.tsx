import type { FileType } from '@schemacheck/engine';
import { CircleAlert, TriangleAlert } from 'lucide-react';

import type { ExampleIssue } from '../content/engine-examples';

/** The errors (and warnings) the validator gives for an example, as the report shows them. */
export function IssueList({
  issues,
  warnings = [],
  fileType,
}: {
  issues: readonly ExampleIssue[];
  warnings?: readonly { code: string; message: string }[];
  fileType: FileType;
}) {
  return (
    <ul className="grid gap-2 text-sm">
      {issues.map((issue) => (
        <li
          key={`${issue.row}-${issue.field}-${issue.code}`}
          className="flex items-start gap-2 rounded-md bg-red-50 px-3 py-2 text-red-900 ring-1 ring-red-200"
        >
          <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-red-600" />
          <span className="min-w-0 break-words">
            <span className="font-medium">
              Row {issue.row}
              {fileType === 'json' && issue.path ? ` · ${issue.path}` : ''}
              {fileType === 'csv' && issue.field ? ` · ${issue.field}` : ''}:
            </span>{' '}
            {issue.message}
            {issue.value !== null && !issue.message.includes(`'${issue.value}'`) ? (
              <>
                {' '}
                (found <code className="font-mono">{issue.value}</code>)
              </>
            ) : null}
          </span>
        </li>
      ))}
      {warnings.map((warning) => (
        <li
          key={warning.code}
          className="flex items-start gap-2 rounded-md bg-amber-50 px-3 py-2 text-amber-950 ring-1 ring-amber-200"
        >
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-700" />
          <span className="min-w-0 break-words">
            <span className="font-medium">Warning:</span> {warning.message}
          </span>
        </li>
      ))}
    </ul>
  );
}

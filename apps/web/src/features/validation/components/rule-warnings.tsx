import { TriangleAlert } from 'lucide-react';

import { formatCount } from '@/lib/format';

import type { ResultView } from '../lib/result';
import { ErrorCards, ErrorTableView } from './error-rows';

// Failures of rules marked as warnings (docs/decisions/202): listed apart from the errors, with
// their severity; they never make the file invalid.

const SHOWN = 50;

export function RuleWarnings({ result }: { result: ResultView }) {
  const warnings = result.warningIssues ?? [];
  if (warnings.length === 0) return null;
  const count = result.warningCount ?? warnings.length;
  const shown = warnings.slice(0, SHOWN);
  const json = result.fileType === 'json';
  return (
    <section
      className="grid gap-3"
      aria-labelledby="rule-warnings-title"
      data-testid="rule-warnings"
    >
      <h2
        id="rule-warnings-title"
        className="flex items-center gap-2 text-base font-semibold text-zinc-900"
      >
        <TriangleAlert aria-hidden="true" className="size-4 text-amber-600" />
        {count === 1 ? '1 warning' : `${formatCount(count)} warnings`} (the file is still valid)
      </h2>
      <ErrorCards errors={shown} json={json} />
      <ErrorTableView errors={shown} json={json} caption="Warnings" />
    </section>
  );
}

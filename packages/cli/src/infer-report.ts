// What `schemacheck infer` says on stderr beside the schema it prints: for each field the type
// chosen, how many of its sample values fit, and the first that do not. Inference takes the type
// most values have (docs/decisions/111), so `validate` on the same file reports those values as
// errors; the closing line says so, so that a failing validate right after infer is no surprise.
// Columns the schema has no field for (a blank or repeated header, JSON lists) are named, not
// dropped quietly. Cross-field rules the sample supports are listed last, as JSON to paste into
// the schema's `rules`: inference never adds them itself (docs/decisions/226).
import { describeSkipped, type InferFieldMisfits, type InferProposal } from '@schemacheck/engine';
import { plural } from './io.ts';

/** Misfits shown per field; the count covers them all. */
const SHOWN = 5;

/** "99.8%", never rounded up to 100% (nor down to 0%) while some values do not fit. */
function share(fitting: number, values: number): string {
  if (values === 0 || fitting === values) return '100%';
  if (fitting === 0) return '0%';
  const tenths = Math.min(999, Math.max(1, Math.floor((fitting / values) * 1000)));
  return `${(tenths / 10).toFixed(1).replace(/\.0$/, '')}%`;
}

function misfitLines(m: InferFieldMisfits): string[] {
  const lines = m.misfits
    .slice(0, SHOWN)
    .map((x) => `      row ${x.row}: ${JSON.stringify(x.value)}`);
  if (m.count > SHOWN) lines.push(`      and ${plural(m.count - SHOWN, 'more value')}`);
  return lines;
}

export function formatInferReport(proposal: InferProposal, source: string, rows: number): string {
  const misfitsOf = new Map(proposal.misfits.map((m) => [m.field, m]));
  const lines = [`schemacheck: inferred from ${plural(rows, 'row')} of ${source}:`];
  if (proposal.fit.length === 0 && proposal.skipped.length === 0)
    lines.push('  no columns: the file is empty or has no header');
  for (const f of proposal.fit) {
    const m = misfitsOf.get(f.field);
    const fits =
      f.values === 0
        ? 'no values (always empty)'
        : `${f.fitting.toLocaleString('en-GB')} of ${plural(f.values, 'value')} fit (${share(f.fitting, f.values)})`;
    lines.push(`  ${f.field}: ${f.type}, ${fits}`);
    if (m) lines.push(`    do not fit:`, ...misfitLines(m));
  }
  if (proposal.skipped.length > 0) {
    lines.push(
      `schemacheck: left out of the schema:`,
      ...proposal.skipped.map((s) => `  ${describeSkipped(s)}`),
    );
    // validate reports a blank or repeated header as an error of the file itself.
    if (proposal.skipped.some((s) => s.reason !== 'not-a-scalar'))
      lines.push(`  validating this file reports its header: give each column a name of its own`);
  }
  const total = proposal.misfits.reduce((n, m) => n + m.count, 0);
  if (total > 0) {
    const where =
      proposal.misfits.length === 1
        ? `column ${proposal.misfits[0]!.field}`
        : `${proposal.misfits.length} columns (${proposal.misfits.map((m) => m.field).join(', ')})`;
    lines.push(
      `schemacheck: ${plural(total, 'value')} in ${where} ${total === 1 ? 'does' : 'do'} not fit; see the misfits above.`,
      `  Each field takes the type most of its values have, so validating this file against the`,
      `  schema reports ${total === 1 ? 'it' : 'them'} as errors: fix the data, or change the field's type.`,
    );
  }
  if (proposal.suggestedRules.length > 0) {
    lines.push(
      `schemacheck: suggested rules, not in the schema above (add them to "rules" if they hold):`,
    );
    for (const { rule, reason } of proposal.suggestedRules) {
      lines.push(`  ${JSON.stringify(rule)}`, `    ${reason}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

import type { ExampleSchema } from '../content/engine-examples';
import { ruleList, typeLabel } from '../lib/schema-summary';

/**
 * A schema's fields as a compact list: name, type and rules. It wraps at any width, between rules
 * only: a pattern is never split mid-token. Name and rules sit side by side
 * only where the list itself is wide enough (a container query), not in a narrow card.
 */
export function SchemaFields({ schema }: { schema: ExampleSchema }) {
  return (
    <ul className="@container divide-y divide-zinc-100 rounded-lg border border-zinc-200 bg-white text-sm">
      {schema.fields.map((field) => (
        <li key={field.name} className="grid gap-1 px-3 py-2.5 @md:grid-cols-[10rem_minmax(0,1fr)]">
          <span className="break-all font-mono text-[13px] font-medium text-zinc-900">
            {field.name}
          </span>
          <span className="min-w-0 break-words text-zinc-600">
            {typeLabel(field)}
            {ruleList(field).map((rule) => (
              <span key={rule}>
                {' · '}
                <span className={rule.startsWith('pattern ') ? 'whitespace-nowrap' : undefined}>
                  {rule}
                </span>
              </span>
            ))}
          </span>
        </li>
      ))}
    </ul>
  );
}

import type { ExampleSchema } from '../content/engine-examples';
import { ruleList, typeLabel } from '../lib/schema-summary';

/** A schema's fields as a compact list: name, type and rules (wraps at any width). */
export function SchemaFields({ schema }: { schema: ExampleSchema }) {
  return (
    <ul className="divide-y divide-zinc-100 rounded-lg border border-zinc-200 bg-white text-sm">
      {schema.fields.map((field) => (
        <li key={field.name} className="grid gap-1 px-3 py-2.5 sm:grid-cols-[10rem_minmax(0,1fr)]">
          <span className="break-all font-mono text-[13px] font-medium text-zinc-900">
            {field.name}
          </span>
          <span className="min-w-0 break-words text-zinc-600">
            {typeLabel(field)}
            {ruleList(field).map((rule) => (
              <span key={rule}> · {rule}</span>
            ))}
          </span>
        </li>
      ))}
    </ul>
  );
}

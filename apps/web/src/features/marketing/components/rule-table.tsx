import { ruleMessages } from '../content/rule-messages';

/** What each field type and rule checks, a value it rejects and the validator's message. */
export function RuleTable() {
  return (
    <div
      className="overflow-x-auto rounded-xl border border-zinc-200 bg-white"
      tabIndex={0}
      role="region"
      aria-label="Field types and rules"
    >
      <table className="w-full min-w-[720px] text-left text-sm">
        <thead className="bg-zinc-50 text-zinc-900">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              Type or rule
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              What is checked
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Rejected value
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Message
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {ruleMessages.map((row) => (
            <tr key={row.rule}>
              <th scope="row" className="px-4 py-3 font-medium text-zinc-900">
                {row.rule}
              </th>
              <td className="px-4 py-3 text-zinc-700">{row.checks}</td>
              <td className="px-4 py-3 font-mono text-[13px] text-zinc-700">
                {row.rejected === '' ? (
                  <span className="font-sans italic">empty</span>
                ) : (
                  row.rejected
                )}
              </td>
              <td className="px-4 py-3 text-zinc-800">{row.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import { ruleMessages } from '../content/rule-messages';
import { ScrollTable } from './scroll-table';

/** What each field type and rule checks, a value it rejects and the validator's message. */
export function RuleTable() {
  return (
    <ScrollTable
      label="Field types and rules"
      minWidth="min-w-[720px]"
      columns={[
        { key: 'rule', label: 'Type or rule' },
        { key: 'checks', label: 'What is checked' },
        { key: 'rejected', label: 'Rejected value' },
        { key: 'message', label: 'Message' },
      ]}
    >
      {ruleMessages.map((row) => (
        <tr key={row.rule}>
          <th scope="row" className="px-4 py-3 font-medium text-zinc-900">
            {row.rule}
          </th>
          <td className="px-4 py-3 text-zinc-700">{row.checks}</td>
          <td className="px-4 py-3 font-mono text-[13px] text-zinc-700">
            {row.rejected === '' ? <span className="font-sans italic">empty</span> : row.rejected}
          </td>
          <td className="px-4 py-3 text-zinc-800">{row.message}</td>
        </tr>
      ))}
    </ScrollTable>
  );
}

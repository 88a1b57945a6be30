import { useId } from 'react';

import type { FileChoices } from '../lib/file-choices';

// The sheet picker (a workbook with several worksheets) and the entry picker (a zip with several
// data files), shown under the drop zone before validating (docs/decisions/206).

export function InputPicker({
  choices,
  value,
  onChange,
  disabled,
}: {
  choices: FileChoices | null;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  const id = useId();
  if (!choices) return null;
  const sheet = choices.kind === 'sheet';
  return (
    <div className="grid gap-1.5" data-testid={sheet ? 'sheet-picker' : 'entry-picker'}>
      <label htmlFor={id} className="text-sm font-medium text-zinc-900">
        {sheet ? 'Sheet to validate' : 'File in the zip to validate'}
      </label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
        className="h-9 w-full min-w-0 rounded-md border border-zinc-300 bg-white px-2 text-sm text-zinc-900 shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600"
      >
        {choices.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
      <p className="text-[13px] text-zinc-600">
        {sheet
          ? `This workbook has ${choices.options.length} sheets; one is validated at a time.`
          : `This zip holds ${choices.options.length} data files; one is validated at a time.`}
      </p>
    </div>
  );
}

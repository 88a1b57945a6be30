import type { ListSummaryV1 } from '@schemacheck/contracts';
import { ListChecks, Pencil, Trash2, TriangleAlert } from 'lucide-react';
import { useId, useRef, useState } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';

import { RenameListForm } from './rename-list-form';

// One saved list on the Profile page: its name, its size against the plan's limit, rename, delete. A list
// over the limit (saved on a bigger plan, or any list on Free) is kept, and validations warn
// instead of checking it (docs/decisions/260): the row says so and what to do.

export const n = (value: number) => value.toLocaleString('en-GB');

export function ListRow({
  list,
  limit,
  deleting,
  onDelete,
}: {
  list: ListSummaryV1;
  /** The plan's values a list; 0 on a plan without saved lists. */
  limit: number;
  deleting: boolean;
  onDelete: () => void;
}) {
  const noteId = useId();
  const [renaming, setRenaming] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  const closeRename = () => {
    setRenaming(false);
    // Back where the keyboard was (the row keeps its key, so the button is there again).
    requestAnimationFrame(() => renameButton.current?.focus());
  };
  return (
    <li className="px-4 py-3 text-sm" aria-describedby={list.over_limit ? noteId : undefined}>
      {renaming ? (
        <RenameListForm name={list.name} onDone={closeRename} />
      ) : (
        <div className="flex items-center justify-between gap-3">
          <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
            <ListChecks aria-hidden="true" className="size-4 shrink-0 text-zinc-500" />
            <span className="truncate font-medium text-zinc-900">{list.name}</span>
            <span className="text-zinc-600">
              {limit > 0
                ? `${n(list.value_count)} of ${n(limit)} values`
                : `${n(list.value_count)} values`}
            </span>
            {list.over_limit ? <Badge variant="danger">Over the plan’s limit</Badge> : null}
          </span>
          <span className="flex shrink-0 items-center gap-1">
            <Button
              ref={renameButton}
              variant="ghost"
              size="sm"
              aria-label={`Rename list ${list.name}`}
              onClick={() => setRenaming(true)}
            >
              <Pencil aria-hidden="true" />
            </Button>
            <Button
              variant="ghost"
              size="sm"
              className="text-red-700 hover:bg-red-50"
              aria-label={`Delete list ${list.name}`}
              disabled={deleting}
              onClick={onDelete}
            >
              <Trash2 aria-hidden="true" />
            </Button>
          </span>
        </div>
      )}
      {list.over_limit ? (
        <p id={noteId} className="mt-2 flex items-start gap-1.5 text-amber-900">
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-700" />
          <span>
            {limit > 0
              ? `Not checked in validations: your plan allows ${n(limit)} values a list. Delete it and upload a shorter list, or change plan.`
              : 'Not checked in validations: your plan has no saved lists. The list is kept; change plan to use it.'}
          </span>
        </p>
      ) : null}
    </li>
  );
}

import {
  LIST_NAME_MESSAGE,
  LIST_NAME_PATTERN,
  PLANS,
  type PublicUser,
} from '@schemacheck/contracts';
import { Upload } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { FieldError } from '@/components/ui/field-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { EmptyState, LoadErrorState, LoadingState } from '@/components/ui/query-states';
import { SectionCard } from '@/components/ui/section-card';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { toastOnError } from '@/lib/error-toast';

import { useDeleteList, useLists, useUploadList } from '../api/lists';
import { ListRow, n } from './list-row';

// Profile → Reference lists (docs/decisions/200): upload a .txt or .csv as a named list, see each
// list's size against the plan's limit (a list over it is kept and marked, decision 260), delete one. A schema field names a list in "In reference
// list"; validations on the server check values against it.

export function ListsSection({ user, className }: { user: PublicUser; className?: string }) {
  const lists = useLists();
  const upload = useUploadList();
  const remove = useDeleteList();
  const baseId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const limits = lists.data?.limits;
  const allowed = (limits?.values_per_list ?? 0) > 0;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const file = fileInput.current?.files?.[0];
    if (!LIST_NAME_PATTERN.test(name.trim())) return setError(LIST_NAME_MESSAGE);
    if (!file) return setError('Choose a .txt or .csv file.');
    setError(null);
    upload.mutate(
      { name: name.trim(), file },
      {
        onSuccess: (list) => {
          toast({
            title: 'List saved',
            description: `${list.name}: ${n(list.value_count)} values.`,
          });
          setName('');
          if (fileInput.current) fileInput.current.value = '';
        },
        onError: toastOnError('List not saved'),
      },
    );
  };

  return (
    <SectionCard
      id={`${baseId}-title`}
      title="Reference lists"
      link={{ to: paths.help, label: 'How lists work' }}
      className={className}
      description={
        <>
          Lists of allowed values (product categories, country codes) that a field checks with “In
          reference list”. A value that nearly matches gets a “Did you mean” suggestion.
          {limits && allowed
            ? ` Your ${PLANS[user.subscriptionTier].label} plan allows ${n(limits.values_per_list)} values a list and ${n(limits.lists)} lists.`
            : ''}
        </>
      }
    >
      {lists.isPending ? (
        <LoadingState>Loading lists…</LoadingState>
      ) : lists.isError ? (
        <LoadErrorState onRetry={() => void lists.refetch()}>
          Lists could not be loaded.
        </LoadErrorState>
      ) : (
        <>
          {!allowed ? (
            <EmptyState className="mt-4">
              Saved lists are part of the Pro plan and above. On this plan, use a field’s allowed
              values.
              {lists.data.lists.length > 0
                ? ' The lists you saved are kept, but validations do not check them.'
                : ''}
            </EmptyState>
          ) : (
            <form
              className="mt-4 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
              onSubmit={onSubmit}
            >
              <div className="grid gap-1.5">
                <Label htmlFor={`${baseId}-name`}>List name</Label>
                <Input
                  id={`${baseId}-name`}
                  value={name}
                  autoComplete="off"
                  spellCheck={false}
                  placeholder="e.g. categories"
                  onChange={(e) => setName(e.target.value)}
                />
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor={`${baseId}-file`}>File (.txt one value a line, or .csv)</Label>
                <Input
                  id={`${baseId}-file`}
                  ref={fileInput}
                  type="file"
                  accept=".txt,.csv,text/plain,text/csv"
                />
              </div>
              <Button type="submit" disabled={upload.isPending}>
                {upload.isPending ? <Spinner /> : <Upload aria-hidden="true" />}
                Upload list
              </Button>
              <FieldError id={`${baseId}-error`} message={error ?? undefined} />
            </form>
          )}
          {lists.data.lists.length === 0 ? (
            allowed ? (
              <EmptyState className="mt-4">No lists yet.</EmptyState>
            ) : null
          ) : (
            <ul
              className="mt-4 divide-y divide-zinc-200 rounded-lg border border-zinc-200"
              aria-label="Your reference lists"
            >
              {lists.data.lists.map((list) => (
                <ListRow
                  key={list.list_id}
                  list={list}
                  limit={limits?.values_per_list ?? 0}
                  deleting={remove.isPending}
                  onDelete={() =>
                    remove.mutate(list.name, {
                      onSuccess: () => toast({ title: 'List deleted', description: list.name }),
                      onError: toastOnError('List not deleted'),
                    })
                  }
                />
              ))}
            </ul>
          )}
        </>
      )}
    </SectionCard>
  );
}

import { LIST_NAME_MESSAGE, LIST_NAME_PATTERN } from '@schemacheck/contracts';
import { Check, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';

import { Button } from '@/components/ui/button';
import { FieldError } from '@/components/ui/field-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';

import { useRenameList } from '../api/lists';

// A list's new name, in place of its row's name: the field has the focus when it opens, Enter
// saves, Escape or Cancel closes it; a name refused (the pattern, a name in use) is said under the
// field, which keeps what was typed. Schemas name lists by name, so the note says they keep the old one.

export function RenameListForm({ name, onDone }: { name: string; onDone: () => void }) {
  const rename = useRenameList();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState(name);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next = value.trim();
    if (next === name) return onDone();
    if (!LIST_NAME_PATTERN.test(next)) return setError(LIST_NAME_MESSAGE);
    setError(null);
    rename.mutate(
      { list: name, name: next },
      {
        onSuccess: (list) => {
          toast({ title: 'List renamed', description: `${name} is now ${list.name}.` });
          onDone();
        },
        onError: (err) => {
          setError(getErrorMessage(err, 'The list was not renamed. Please try again.'));
          input.current?.focus();
        },
      },
    );
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onDone();
    }
  };

  return (
    <form className="grid gap-1.5" onSubmit={onSubmit} onKeyDown={onKeyDown} noValidate>
      <Label htmlFor={`${id}-name`}>New name for {name}</Label>
      <div className="flex flex-wrap items-center gap-2">
        <Input
          id={`${id}-name`}
          ref={input}
          value={value}
          autoComplete="off"
          spellCheck={false}
          className="w-full sm:w-64"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-note${error ? ` ${id}-error` : ''}`}
          onChange={(e) => setValue(e.target.value)}
        />
        <Button type="submit" size="sm" disabled={rename.isPending}>
          {rename.isPending ? <Spinner /> : <Check aria-hidden="true" />}
          Save name
        </Button>
        <Button type="button" variant="ghost" size="sm" onClick={onDone}>
          <X aria-hidden="true" />
          Cancel
        </Button>
      </div>
      <FieldError id={`${id}-error`} message={error ?? undefined} />
      <p id={`${id}-note`} className="text-xs text-zinc-600">
        Schemas that use “{name}” keep that name: change their “In reference list” too.
      </p>
    </form>
  );
}

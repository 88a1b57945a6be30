import type { SavedSchema } from '@schemacheck/contracts';
import { Trash2 } from 'lucide-react';

import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';

import { useDeleteSchema, useSavedSchemas } from '../api/schemas';
import { formatLongDate } from '@/lib/format';

export function SavedSchemasDialog({
  open,
  onOpenChange,
  onLoad,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onLoad: (schema: SavedSchema) => void;
}) {
  const { data: schemas, isPending, isError } = useSavedSchemas(open);
  const remove = useDeleteSchema();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Load a saved schema</DialogTitle>
          <DialogDescription>
            Loading replaces the fields in the builder with a copy of the saved schema.
          </DialogDescription>
        </DialogHeader>
        {isPending ? (
          <p className="flex items-center gap-2 text-sm text-zinc-600">
            <Spinner /> Loading your schemas…
          </p>
        ) : isError ? (
          <p className="text-sm text-red-700">
            Your schemas could not be loaded. Please try again.
          </p>
        ) : schemas.length === 0 ? (
          <p className="rounded-lg border border-dashed border-zinc-300 px-4 py-6 text-center text-sm text-zinc-600">
            No saved schemas yet. Build one and choose Save schema.
          </p>
        ) : (
          <ul className="grid max-h-80 gap-2 overflow-y-auto" aria-label="Saved schemas">
            {schemas.map((schema) => (
              <li
                key={schema.id}
                className="flex items-center gap-3 rounded-lg border border-zinc-200 px-3 py-2.5"
              >
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium text-zinc-900">{schema.name}</p>
                  <p className="text-xs text-zinc-600">
                    {schema.fileType ? schema.fileType.toUpperCase() : 'CSV or JSON'} ·{' '}
                    {schema.fields.length} {schema.fields.length === 1 ? 'field' : 'fields'}
                    {schema.createdAt
                      ? ` · ${formatLongDate(schema.updatedAt ?? schema.createdAt)}`
                      : ''}
                  </p>
                </div>
                <Button size="sm" onClick={() => onLoad(schema)} aria-label={`Load ${schema.name}`}>
                  Load
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  className="px-2 text-red-700 hover:bg-red-50"
                  aria-label={`Delete ${schema.name}`}
                  disabled={remove.isPending}
                  onClick={() =>
                    remove.mutate(schema.id, {
                      onSuccess: () => toast({ title: 'Schema deleted', description: schema.name }),
                      onError: (error) =>
                        toast({
                          variant: 'destructive',
                          title: 'Error',
                          description: getErrorMessage(error, 'Failed to delete schema.'),
                        }),
                    })
                  }
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}

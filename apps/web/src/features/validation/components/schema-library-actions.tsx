import { FolderOpen, Lock, Save } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';

/** Save schema and Load schema, locked (with a padlock) on plans without saved schemas. */
export function SchemaLibraryActions({
  locked,
  saving,
  onSave,
  onLoad,
}: {
  locked: boolean;
  saving: boolean;
  onSave: () => void;
  onLoad: () => void;
}) {
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        onClick={onSave}
        disabled={saving}
        aria-label={locked ? 'Save schema (paid plans)' : undefined}
      >
        {saving ? <Spinner /> : locked ? <Lock aria-hidden="true" /> : <Save aria-hidden="true" />}
        Save schema
      </Button>
      <Button
        variant="outline"
        size="sm"
        onClick={onLoad}
        aria-label={locked ? 'Load schema (paid plans)' : undefined}
      >
        {locked ? <Lock aria-hidden="true" /> : <FolderOpen aria-hidden="true" />}
        Load schema
      </Button>
    </>
  );
}

import { PLANS, type PublicUser } from '@schemacheck/contracts';
import { useRef, useState } from 'react';

import { toast } from '@/hooks/use-toast';

import { useUsage } from '../api/usage';
import { useFileChoice } from '../lib/file-choices';
import { fileTypeOf } from '../lib/result';
import { checkDraftForValidation } from '../lib/schema-check';
import { fromWebSchema, mapProblems, type ProblemMap } from '../lib/schema-draft';
import { sampleFile, STARTER_SCHEMA } from '../lib/starter';
import { upgradeForFailure, type UpgradeReason } from '../lib/upgrade-reason';
import { useSchemaForm } from '../lib/use-schema-form';
import { useSchemaLibrary } from '../lib/use-schema-library';
import { useServerValidation } from '../lib/use-server-validation';
import { ActionBar } from './action-bar';
import { InputPicker } from './input-picker';
import { SavedSchemasDialog } from './saved-schemas-dialog';
import { SchemaBuilder } from './schema-builder';
import { SchemaLibraryActions } from './schema-library-actions';
import { UpgradeDialog } from './upgrade-dialog';
import { UploadCard } from './upload-card';
import { UsageCard } from './usage-card';
import { WorkspaceResults } from './workspace-results';

const NO_PROBLEMS: ProblemMap = { schema: [], fields: {} };

/**
 * The signed-in validation workspace: a composition of the upload card, the schema builder,
 * the server validation (useServerValidation), the saved schemas (useSchemaLibrary) and the
 * results; the upgrade dialog opens by error code.
 */
export function Workspace({ user }: { user: PublicUser }) {
  const plan = PLANS[user.subscriptionTier];
  const [file, setFile] = useState<File | null>(null);
  const [problems, setProblems] = useState<ProblemMap>(NO_PROBLEMS);
  const [upgrade, setUpgrade] = useState<UpgradeReason | null>(null);
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  const usage = useUsage();
  const server = useServerValidation();
  const pick = useFileChoice(file);

  const form = useSchemaForm('csv', () => {
    server.clearResult();
    setProblems(NO_PROBLEMS);
  });
  const fieldCount = form.watch('fields').length;
  const library = useSchemaLibrary({
    form,
    plan,
    onUpgrade: setUpgrade,
    onProblems: setProblems,
  });

  const chooseFile = (chosen: File) => {
    setFile(chosen);
    server.clearResult();
    const type = fileTypeOf(chosen.name);
    if (type && type !== form.getValues('fileType')) form.setValue('fileType', type);
  };

  const onValidate = async () => {
    if (server.running) return;
    const checked = await checkDraftForValidation(form.getValues(), file);
    if (!checked.ok) {
      if (checked.problems) setProblems(checked.problems);
      return;
    }
    if (!file) return;
    setProblems(NO_PROBLEMS);
    const outcome = await server.validate(file, checked.schema, pick.choice);
    if (outcome.kind === 'done') {
      toast({ title: outcome.verdict.title, description: outcome.verdict.description });
      requestAnimationFrame(() => resultsHeading.current?.focus());
    } else if (outcome.kind === 'cancelled') {
      toast({ title: 'Validation cancelled' });
    } else {
      const { failure } = outcome;
      const reason = upgradeForFailure(failure, file, usage.data?.resetDate);
      if (reason) {
        setUpgrade(reason);
        return;
      }
      if (failure.code === 'invalid_schema' && failure.problems.length) {
        setProblems(mapProblems(failure.problems));
      }
      toast({ variant: 'destructive', title: 'Validation failed', description: failure.message });
    }
  };

  const loadStarter = () => {
    form.reset(fromWebSchema(STARTER_SCHEMA));
    library.forget();
  };
  const loadSample = () => {
    if (form.getValues('fields').length === 0) loadStarter();
    chooseFile(sampleFile());
    toast({
      title: 'Sample file selected',
      description: 'A small customer list with a few mistakes. Validate it to see the results.',
    });
  };

  return (
    <>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:items-start">
        <div className="grid min-w-0 grid-cols-1 gap-6">
          <UsageCard />
          <UploadCard
            plan={plan}
            file={file}
            disabled={Boolean(server.running)}
            onFile={chooseFile}
            onRemove={() => {
              setFile(null);
              server.clearResult();
            }}
            onTooLarge={(big) =>
              setUpgrade({ kind: 'file_too_large', fileName: big.name, fileSize: big.size })
            }
            onSample={loadSample}
            onStarter={fieldCount === 0 ? loadStarter : undefined}
          />
          <InputPicker
            choices={pick.choices}
            value={pick.value}
            onChange={(value) => {
              pick.setValue(value);
              server.clearResult();
            }}
            disabled={Boolean(server.running)}
          />
          <SchemaBuilder
            form={form}
            problems={problems}
            file={file}
            onReplaced={library.forget}
            actions={
              <SchemaLibraryActions
                locked={library.locked}
                saving={library.saving}
                onSave={() => void library.onSave()}
                onLoad={library.openLoad}
              />
            }
          />
          <ActionBar
            file={file}
            fieldCount={fieldCount}
            running={Boolean(server.running)}
            onValidate={() => void onValidate()}
            label="Validate file"
          />
        </div>
        <WorkspaceResults
          tier={user.subscriptionTier}
          running={server.running}
          result={server.result}
          onCancel={server.cancel}
          onUpgrade={setUpgrade}
          headingRef={resultsHeading}
        />
      </div>
      <p role="status" aria-live="polite" className="sr-only" data-testid="validation-status">
        {server.status}
      </p>
      <UpgradeDialog
        reason={upgrade}
        tier={user.subscriptionTier}
        onClose={() => setUpgrade(null)}
      />
      <SavedSchemasDialog
        open={library.loadOpen}
        onOpenChange={library.setLoadOpen}
        onLoad={library.onLoad}
      />
    </>
  );
}

import { PLANS, type PublicUser } from '@schemacheck/contracts';
import type { WebSchema } from '@schemacheck/engine';
import { useRef, useState } from 'react';

import { toast } from '@/hooks/use-toast';
import { validatesOnDevice } from '@/lib/plan-display';

import { useUsage } from '../api/usage';
import { useFileChoice } from '../lib/file-choices';
import { fileTypeOf } from '../lib/result';
import { checkDraftForValidation } from '../lib/schema-check';
import { fromWebSchema, mapProblems, type ProblemMap } from '../lib/schema-draft';
import { sampleFile, STARTER_SCHEMA } from '../lib/starter';
import { upgradeForFailure, type UpgradeReason } from '../lib/upgrade-reason';
import { useSchemaForm } from '../lib/use-schema-form';
import { useSchemaLibrary } from '../lib/use-schema-library';
import { useLocalValidation } from '../lib/use-local-validation';
import { useServerValidation } from '../lib/use-server-validation';
import { loadEngine } from '../lib/engine';
import { verdictOf } from '../lib/result';
import { ActionBar } from './action-bar';
import { InputPicker } from './input-picker';
import { LocalResults } from './local-results';
import { SavedSchemasDialog } from './saved-schemas-dialog';
import { SchemaBuilder } from './schema-builder';
import { SchemaLibraryActions } from './schema-library-actions';
import { UpgradeDialog } from './upgrade-dialog';
import { UploadCard } from './upload-card';
import { OnDeviceCard, UsageCard } from './usage-card';
import { WorkspaceResults } from './workspace-results';

const NO_PROBLEMS: ProblemMap = { schema: [], fields: {} };

/**
 * The signed-in validation workspace: a composition of the upload card, the schema builder,
 * the validation, the saved schemas (useSchemaLibrary) and the results; the upgrade dialog opens
 * by error code. On the Free plan the file is checked on this device, as on the public validators
 * (docs/decisions/227); the paid plans validate on the server, which stores results and reports.
 */
export function Workspace({ user }: { user: PublicUser }) {
  const plan = PLANS[user.subscriptionTier];
  const [file, setFile] = useState<File | null>(null);
  const [problems, setProblems] = useState<ProblemMap>(NO_PROBLEMS);
  const [upgrade, setUpgrade] = useState<UpgradeReason | null>(null);
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  const fileCard = useRef<HTMLDivElement>(null);
  const usage = useUsage();
  const server = useServerValidation();
  const local = useLocalValidation();
  const onDevice = validatesOnDevice(plan);
  const [localStatus, setLocalStatus] = useState('');
  const running = onDevice ? local.state.status === 'running' : Boolean(server.running);
  const pick = useFileChoice(file);

  const clearResult = () => {
    server.clearResult();
    local.reset();
  };
  const form = useSchemaForm('csv', () => {
    clearResult();
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
    if (onDevice) void loadEngine().catch(() => undefined);
    setFile(chosen);
    clearResult();
    const type = fileTypeOf(chosen.name);
    if (type && type !== form.getValues('fileType')) form.setValue('fileType', type);
  };

  const validateOnDevice = async (chosen: File, schema: WebSchema) => {
    setLocalStatus(`Validating ${chosen.name} on this device…`);
    const outcome = await local.start(chosen, schema, form.getValues('fileType'), pick.choice);
    if (outcome.status === 'done') {
      const verdict = verdictOf(outcome.outcome.result);
      toast({ title: verdict.title, description: verdict.description });
      setLocalStatus(verdict.announcement);
      requestAnimationFrame(() => resultsHeading.current?.focus());
    } else if (outcome.status === 'error') {
      if (outcome.problems) setProblems(mapProblems(outcome.problems));
      toast({ variant: 'destructive', title: 'Validation failed', description: outcome.message });
      setLocalStatus('Validation did not complete.');
    }
  };

  const onValidate = async () => {
    if (running) return;
    const checked = await checkDraftForValidation(form.getValues(), file);
    if (!checked.ok) {
      if (checked.problems) setProblems(checked.problems);
      return;
    }
    if (!file) return;
    setProblems(NO_PROBLEMS);
    if (onDevice) {
      await validateOnDevice(file, checked.schema);
      return;
    }
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
          {/* On the device nothing is counted; the story of the plan sits under the results. */}
          {onDevice ? null : <UsageCard />}
          <div ref={fileCard} className="grid min-w-0 grid-cols-1 gap-6">
            <UploadCard
              plan={plan}
              onDevice={onDevice}
              file={file}
              disabled={running}
              onFile={chooseFile}
              onRemove={() => {
                setFile(null);
                clearResult();
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
                clearResult();
              }}
              disabled={running}
            />
          </div>
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
            running={running}
            onValidate={() => void onValidate()}
            label="Validate file"
            guard={fileCard}
          />
        </div>
        {onDevice ? (
          <div className="grid min-w-0 grid-cols-1 gap-6">
            <LocalResults
              state={local.state}
              onCancel={() => {
                local.cancel();
                toast({ title: 'Validation cancelled' });
              }}
              headingRef={resultsHeading}
              headingId="results-heading"
            />
            <OnDeviceCard plan={plan} />
          </div>
        ) : (
          <WorkspaceResults
            tier={user.subscriptionTier}
            running={server.running}
            result={server.result}
            onCancel={server.cancel}
            onUpgrade={setUpgrade}
            headingRef={resultsHeading}
          />
        )}
      </div>
      <p role="status" aria-live="polite" className="sr-only" data-testid="validation-status">
        {onDevice ? localStatus : server.status}
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

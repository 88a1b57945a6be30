import {
  nextTier,
  PLANS,
  reportFileName,
  WORKSPACE_ERROR_CODES,
  type PublicUser,
  type SavedSchema,
  type ValidateResponse,
} from '@schemacheck/contracts';
import type { WebField } from '@schemacheck/engine';
import { useQueryClient } from '@tanstack/react-query';
import { FileSpreadsheet, FolderOpen, LayoutTemplate, ListPlus, Lock, Save } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useRef, useState } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { ApiError, getErrorMessage } from '@/lib/api-client';

import { useSaveSchema } from '../api/schemas';
import { USAGE_KEY, useUsage } from '../api/usage';
import { fetchErrorReport, validateOnServer } from '../api/validate';
import { downloadBlob } from '../lib/download';
import { formatMaxFileSize, formatMaxRows } from '../lib/format';
import { fileTypeOf, verdictOf, type ResultView } from '../lib/result';
import { checkDraftForValidation, checkSchema } from '../lib/schema-check';
import { fromWebSchema, mapProblems, type ProblemMap } from '../lib/schema-draft';
import { sampleFile, STARTER_SCHEMA } from '../lib/starter';
import { useSchemaForm } from '../lib/use-schema-form';
import { ActionBar } from './action-bar';
import { FileDropzone } from './file-dropzone';
import { ResultsPanel, ResultsPlaceholder } from './results-panel';
import { SavedSchemasDialog } from './saved-schemas-dialog';
import { SchemaBuilder } from './schema-builder';
import { UpgradeDialog, type UpgradeReason } from './upgrade-dialog';
import { UsageCard } from './usage-card';
import { ServerProgress, type UploadState } from './validation-progress';

const NO_PROBLEMS: ProblemMap = { schema: [], fields: {} };

interface Running {
  startedAt: number;
  upload: UploadState;
  controller: AbortController;
}

interface ErrorBody {
  error?: string;
  code?: string;
  problems?: { path: string; message: string }[];
}

function errorBody(error: unknown): ErrorBody | null {
  if (!(error instanceof ApiError)) return null;
  try {
    const value = JSON.parse(error.body) as unknown;
    return typeof value === 'object' && value !== null ? (value as ErrorBody) : null;
  } catch {
    return null;
  }
}

/** docs/product.md#messages: the part of "413: ..." after ': ', or the fallback. */
function failureText(error: unknown): string {
  const body = errorBody(error);
  if (body?.error) return body.error;
  if (error instanceof Error && error.message.includes(': ')) {
    return error.message.slice(error.message.indexOf(': ') + 2);
  }
  return 'An error occurred during validation.';
}

export function Workspace({ user }: { user: PublicUser }) {
  const plan = PLANS[user.subscriptionTier];
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<ValidateResponse | null>(null);
  const [running, setRunning] = useState<Running | null>(null);
  const [problems, setProblems] = useState<ProblemMap>(NO_PROBLEMS);
  const [upgrade, setUpgrade] = useState<UpgradeReason | null>(null);
  const [status, setStatus] = useState('');
  const [loadOpen, setLoadOpen] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [loaded, setLoaded] = useState<{ id: string; name: string } | null>(null);
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  const save = useSaveSchema();
  const usage = useUsage();

  const form = useSchemaForm('csv', () => {
    setResult(null);
    setProblems(NO_PROBLEMS);
  });
  const fieldCount = form.watch('fields').length;

  const chooseFile = (chosen: File) => {
    setFile(chosen);
    setResult(null);
    const type = fileTypeOf(chosen.name);
    if (type && type !== form.getValues('fileType')) form.setValue('fileType', type);
  };

  const onValidate = async () => {
    if (running) return;
    const checked = await checkDraftForValidation(form.getValues(), file);
    if (!checked.ok) {
      if (checked.problems) setProblems(checked.problems);
      return;
    }
    if (!file) return;
    const controller = new AbortController();
    const startedAt = Date.now();
    setResult(null);
    setProblems(NO_PROBLEMS);
    setStatus(`Validating ${file.name}…`);
    setRunning({ startedAt, controller, upload: { loaded: 0, total: file.size, doneAt: null } });
    const update = (upload: Partial<UploadState>) =>
      setRunning((r) => (r ? { ...r, upload: { ...r.upload, ...upload } } : r));
    try {
      const response = await validateOnServer(file, checked.schema, {
        signal: controller.signal,
        onUploadProgress: (loaded, total) => update({ loaded, total }),
        onUploadDone: () => update({ doneAt: Date.now() - startedAt }),
      });
      setResult(response);
      void queryClient.invalidateQueries({ queryKey: USAGE_KEY });
      const verdict = verdictOf(response);
      toast({ title: verdict.title, description: verdict.description });
      setStatus(verdict.announcement);
      requestAnimationFrame(() => resultsHeading.current?.focus());
    } catch (error) {
      setStatus('Validation did not complete.');
      onValidationError(error);
    } finally {
      setRunning(null);
    }
  };

  const onValidationError = (error: unknown) => {
    if (error instanceof DOMException && error.name === 'AbortError') {
      toast({ title: 'Validation cancelled' });
      return;
    }
    const body = errorBody(error);
    const text = failureText(error);
    const code = body?.code;
    if (code === WORKSPACE_ERROR_CODES.fileTooLarge || text.includes('file size')) {
      setUpgrade({
        kind: 'file_too_large',
        message: text,
        ...(file ? { fileName: file.name, fileSize: file.size } : {}),
      });
      return;
    }
    if (code === WORKSPACE_ERROR_CODES.rowLimit || text.includes('rows')) {
      setUpgrade({ kind: 'row_limit', message: text, ...(file ? { fileName: file.name } : {}) });
      return;
    }
    if (code === WORKSPACE_ERROR_CODES.monthlyLimit) {
      const resetDate = usage.data?.resetDate;
      setUpgrade({ kind: 'monthly_limit', message: text, ...(resetDate ? { resetDate } : {}) });
      void queryClient.invalidateQueries({ queryKey: USAGE_KEY });
      return;
    }
    if (code === WORKSPACE_ERROR_CODES.invalidSchema && body?.problems?.length) {
      setProblems(mapProblems(body.problems));
    }
    toast({ variant: 'destructive', title: 'Validation failed', description: text });
  };

  const onDownload = async () => {
    if (!result) return;
    if (!plan.limits.reportExport || !result.reportAvailable) {
      setUpgrade({ kind: 'export_locked' });
      return;
    }
    setDownloading(true);
    try {
      downloadBlob(await fetchErrorReport(result.id), reportFileName(result.fileName));
    } catch (error) {
      if (errorBody(error)?.code === WORKSPACE_ERROR_CODES.planRequired) {
        setUpgrade({ kind: 'export_locked' });
      } else {
        console.warn('Error report download failed', error);
        toast({
          variant: 'destructive',
          title: 'Download failed',
          description: getErrorMessage(error, 'The error report could not be downloaded.'),
        });
      }
    } finally {
      setDownloading(false);
    }
  };

  const onSave = async () => {
    if (!plan.limits.savedSchemas) {
      setUpgrade({ kind: 'save_locked' });
      return;
    }
    const draft = form.getValues();
    if (!draft.name.trim()) {
      toast({
        variant: 'destructive',
        title: 'Schema name required',
        description: 'Please enter a name for your schema.',
      });
      return;
    }
    if (draft.fields.length === 0) {
      toast({
        variant: 'destructive',
        title: 'Fields required',
        description: 'Please add at least one field to your schema.',
      });
      return;
    }
    const checked = await checkSchema(draft);
    if (!checked.ok) {
      if (checked.problems) setProblems(checked.problems);
      return;
    }
    const { schema } = checked;
    const overwrite = loaded && loaded.name === draft.name.trim() ? loaded.id : undefined;
    save.mutate(
      {
        id: overwrite,
        input: {
          name: draft.name.trim(),
          fileType: draft.fileType,
          fields: schema.fields as unknown as Record<string, unknown>[],
          ...(schema.orderMatters !== undefined ? { orderMatters: schema.orderMatters } : {}),
          ...(schema.additionalColumns !== undefined
            ? { additionalColumns: schema.additionalColumns }
            : {}),
          ...(schema.additionalProperties !== undefined
            ? { additionalProperties: schema.additionalProperties }
            : {}),
        },
      },
      {
        onSuccess: (saved) => {
          if (saved?.id) setLoaded({ id: saved.id, name: saved.name ?? draft.name.trim() });
          toast({ title: 'Schema saved', description: 'Your schema has been saved successfully.' });
        },
        onError: (error) => {
          const body = errorBody(error);
          if (body?.code === WORKSPACE_ERROR_CODES.planRequired) {
            setUpgrade({ kind: 'save_locked' });
            return;
          }
          if (body?.problems?.length) setProblems(mapProblems(body.problems));
          toast({
            variant: 'destructive',
            title: 'Error',
            description:
              body?.error && body.code !== 'internal' ? body.error : 'Failed to save schema.',
          });
        },
      },
    );
  };

  const onLoadClick = () => {
    if (!plan.limits.savedSchemas) {
      setUpgrade({ kind: 'load_locked' });
      return;
    }
    setLoadOpen(true);
  };

  const onLoad = (saved: SavedSchema) => {
    // A copy: name, fileType and fields (docs/product.md#the-validation-workspace).
    form.reset(
      fromWebSchema(
        {
          name: saved.name,
          // A schema saved through the API may name no type: keep the one chosen here.
          ...(saved.fileType ? { fileType: saved.fileType } : {}),
          fields: saved.fields as unknown as WebField[],
          ...(saved.orderMatters !== undefined ? { orderMatters: saved.orderMatters } : {}),
          ...(saved.additionalColumns !== undefined
            ? { additionalColumns: saved.additionalColumns }
            : {}),
          ...(saved.additionalProperties !== undefined
            ? { additionalProperties: saved.additionalProperties }
            : {}),
        },
        form.getValues('fileType'),
      ),
    );
    setLoaded({ id: saved.id, name: saved.name });
    setLoadOpen(false);
    toast({ title: 'Schema loaded', description: saved.name });
  };

  const locked = !plan.limits.savedSchemas;
  const resultView: ResultView | null = result;
  const reportLocked = result !== null && (!plan.limits.reportExport || !result.reportAvailable);

  const loadSample = () => {
    if (form.getValues('fields').length === 0) loadStarter();
    chooseFile(sampleFile());
    toast({
      title: 'Sample file selected',
      description: 'A small customer list with a few mistakes. Validate it to see the results.',
    });
  };
  const loadStarter = () => {
    form.reset(fromWebSchema(STARTER_SCHEMA));
    setLoaded(null);
  };

  return (
    <>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:items-start">
        <div className="grid min-w-0 grid-cols-1 gap-6">
          <UsageCard />
          <Card>
            <CardHeader>
              <div className="flex items-start justify-between gap-3">
                <div>
                  <CardTitle>Upload file</CardTitle>
                  <CardDescription>A CSV or JSON file to check against the schema.</CardDescription>
                </div>
                <Badge data-testid="tier-badge">{plan.label}</Badge>
              </div>
            </CardHeader>
            <CardContent className="grid gap-4">
              <dl className="grid grid-cols-2 gap-3 text-sm">
                <div className="rounded-lg bg-zinc-50 px-3 py-2">
                  <dt className="text-xs text-zinc-600">Maximum file size</dt>
                  <dd className="font-medium text-zinc-900">
                    {formatMaxFileSize(plan.limits.maxFileBytes)}
                  </dd>
                </div>
                <div className="rounded-lg bg-zinc-50 px-3 py-2">
                  <dt className="text-xs text-zinc-600">Maximum rows</dt>
                  <dd className="font-medium text-zinc-900">
                    {formatMaxRows(plan.limits.maxRows)}
                  </dd>
                </div>
              </dl>
              <FileDropzone
                file={file}
                maxBytes={plan.limits.maxFileBytes}
                disabled={Boolean(running)}
                onFile={chooseFile}
                onRemove={() => {
                  setFile(null);
                  setResult(null);
                }}
                onTooLarge={(big) =>
                  setUpgrade({ kind: 'file_too_large', fileName: big.name, fileSize: big.size })
                }
              />
              {!file ? (
                <StartPoints
                  onSample={loadSample}
                  onStarter={fieldCount === 0 ? loadStarter : undefined}
                />
              ) : null}
            </CardContent>
          </Card>
          <SchemaBuilder
            form={form}
            problems={problems}
            file={file}
            onReplaced={() => setLoaded(null)}
            actions={
              <>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => void onSave()}
                  disabled={save.isPending}
                  aria-label={locked ? 'Save schema (paid plans)' : undefined}
                >
                  {save.isPending ? (
                    <Spinner />
                  ) : locked ? (
                    <Lock aria-hidden="true" />
                  ) : (
                    <Save aria-hidden="true" />
                  )}
                  Save schema
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={onLoadClick}
                  aria-label={locked ? 'Load schema (paid plans)' : undefined}
                >
                  {locked ? <Lock aria-hidden="true" /> : <FolderOpen aria-hidden="true" />}
                  Load schema
                </Button>
              </>
            }
          />
          <ActionBar
            file={file}
            fieldCount={fieldCount}
            running={Boolean(running)}
            onValidate={() => void onValidate()}
            label="Validate file"
          />
        </div>

        <section aria-labelledby="results-heading" className="grid min-w-0 grid-cols-1 gap-4">
          <h2
            id="results-heading"
            ref={resultsHeading}
            tabIndex={-1}
            className="text-lg font-semibold text-zinc-900 focus:outline-none"
          >
            Results
          </h2>
          {running ? (
            <ServerProgress
              startedAt={running.startedAt}
              upload={running.upload}
              onCancel={() => running.controller.abort()}
            />
          ) : resultView && result ? (
            <ResultsPanel
              result={resultView}
              report={{
                onDownload: () => void onDownload(),
                busy: downloading,
                locked: reportLocked
                  ? `Full report with ${PLANS[nextTier(user.subscriptionTier)].label}`
                  : undefined,
                note: reportLocked
                  ? `Every error as a CSV file comes with the ${PLANS[nextTier(user.subscriptionTier)].label} plan.`
                  : undefined,
              }}
            />
          ) : (
            <ResultsPlaceholder />
          )}
        </section>
      </div>
      <p role="status" aria-live="polite" className="sr-only" data-testid="validation-status">
        {status}
      </p>
      <UpgradeDialog
        reason={upgrade}
        tier={user.subscriptionTier}
        onClose={() => setUpgrade(null)}
      />
      <SavedSchemasDialog open={loadOpen} onOpenChange={setLoadOpen} onLoad={onLoad} />
    </>
  );
}

/** The empty workspace's ways in: a sample file, a starter schema, or a template. */
function StartPoints({
  onSample,
  onStarter,
}: {
  onSample: () => void;
  onStarter: (() => void) | undefined;
}) {
  return (
    <div className="rounded-lg border border-zinc-200 bg-white p-3" data-testid="start-points">
      <p className="text-sm font-medium text-zinc-900">Nothing to hand? Start from an example.</p>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={onSample}>
          <FileSpreadsheet aria-hidden="true" />
          Try a sample file
        </Button>
        {onStarter ? (
          <Button variant="outline" size="sm" onClick={onStarter}>
            <ListPlus aria-hidden="true" />
            Use a starter schema
          </Button>
        ) : null}
        <Link to={paths.templates} className={buttonVariants({ variant: 'ghost', size: 'sm' })}>
          <LayoutTemplate aria-hidden="true" />
          Browse templates
        </Link>
      </div>
    </div>
  );
}

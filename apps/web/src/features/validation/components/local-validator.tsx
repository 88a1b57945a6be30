import type { FileType } from '@schemacheck/engine';
import { ShieldCheck } from 'lucide-react';
import { useRef, useState } from 'react';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/hooks/use-toast';

import { useFileChoice } from '../lib/file-choices';
import { fileTypeOf, verdictOf } from '../lib/result';
import { loadEngine } from '../lib/engine';
import { checkDraftForValidation } from '../lib/schema-check';
import { mapProblems, type ProblemMap } from '../lib/schema-draft';
import { useLocalValidation } from '../lib/use-local-validation';
import { usePreset, type ValidatorPreset } from '../lib/use-preset';
import { useSchemaForm } from '../lib/use-schema-form';
import { ActionBar } from './action-bar';
import { FileDropzone } from './file-dropzone';
import { InputPicker } from './input-picker';
import { LocalResults } from './local-results';
import { SchemaBuilder } from './schema-builder';

const NO_PROBLEMS: ProblemMap = { schema: [], fields: {} };

/**
 * The public validators (/csv-validator, /json-validator): the same builder and results as the
 * dashboard, but the engine runs in a Web Worker on this device and nothing is uploaded.
 */
export function LocalValidator({
  fileType,
  preset,
}: {
  fileType: FileType;
  /** A template's schema and sample file, from the page (/templates links with ?template=). */
  preset?: ValidatorPreset | undefined;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [problems, setProblems] = useState<ProblemMap>(NO_PROBLEMS);
  const [status, setStatus] = useState('');
  const { state, start, cancel, reset } = useLocalValidation();
  const pick = useFileChoice(file);
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  const fileCard = useRef<HTMLDivElement>(null);
  const form = useSchemaForm(fileType, () => {
    reset();
    setProblems(NO_PROBLEMS);
  });
  const fieldCount = form.watch('fields').length;
  const presetNotice = usePreset(preset, fileType, {
    onSchema: (draft) => form.reset(draft),
    onSample: (sample) => {
      setFile(sample);
      reset();
    },
  });
  const running = state.status === 'running';

  const onValidate = async () => {
    if (running) return;
    const draft = form.getValues();
    const checked = await checkDraftForValidation(draft, file);
    if (!checked.ok) {
      if (checked.problems) setProblems(checked.problems);
      return;
    }
    if (!file) return;
    setProblems(NO_PROBLEMS);
    setStatus(`Validating ${file.name} on this device…`);
    const outcome = await start(file, checked.schema, draft.fileType, pick.choice);
    if (outcome.status === 'done') {
      const r = outcome.outcome.result;
      const verdict = verdictOf(r);
      toast({ title: verdict.title, description: verdict.description });
      setStatus(verdict.announcement);
      requestAnimationFrame(() => resultsHeading.current?.focus());
    } else if (outcome.status === 'error') {
      if (outcome.problems) setProblems(mapProblems(outcome.problems));
      toast({ variant: 'destructive', title: 'Validation failed', description: outcome.message });
      setStatus('Validation did not complete.');
    }
  };

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:items-start">
      <div className="grid min-w-0 grid-cols-1 gap-6">
        <Card ref={fileCard}>
          <CardHeader>
            <CardTitle>Choose a file</CardTitle>
            <CardDescription>
              {fileType === 'csv' ? 'A CSV file' : 'A JSON array of objects or NDJSON'} of any size.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            {presetNotice}
            <p className="flex items-start gap-2 rounded-lg bg-green-50 px-3 py-2.5 text-sm text-green-900 ring-1 ring-green-200">
              <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              Checked on this device. Your file is never uploaded.
            </p>
            <FileDropzone
              file={file}
              maxBytes={null}
              disabled={running}
              onFile={(chosen) => {
                void loadEngine().catch(() => undefined);
                setFile(chosen);
                reset();
                const type = fileTypeOf(chosen.name);
                if (type && type !== form.getValues('fileType')) form.setValue('fileType', type);
              }}
              onRemove={() => {
                setFile(null);
                reset();
              }}
            />
            <InputPicker
              choices={pick.choices}
              value={pick.value}
              onChange={(value) => {
                pick.setValue(value);
                reset();
              }}
              disabled={running}
            />
          </CardContent>
        </Card>
        <SchemaBuilder form={form} problems={problems} file={file} />
        <ActionBar
          file={file}
          fieldCount={fieldCount}
          running={running}
          onValidate={() => void onValidate()}
          label="Validate on this device"
          guard={fileCard}
        />
      </div>

      <LocalResults
        state={state}
        onCancel={cancel}
        headingRef={resultsHeading}
        headingId="local-results-heading"
        // Nothing is uploaded here: the file is read on this device.
        placeholder="Choose a file and validate it to see results here"
      />
      <p role="status" aria-live="polite" className="sr-only" data-testid="validation-status">
        {status}
      </p>
    </div>
  );
}

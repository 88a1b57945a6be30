import { zodResolver } from '@hookform/resolvers/zod';
import {
  createApiKeyInputSchema,
  PLANS,
  TEST_MODE_MAX_FILE_BYTES,
  TEST_MODE_RATE_PER_MINUTE,
  type ApiKeyItem,
  type CreatedApiKey,
  type PublicUser,
} from '@schemacheck/contracts';
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { OneTimeSecret } from '@/components/ui/one-time-secret';
import { EmptyState, LoadErrorState, LoadingState } from '@/components/ui/query-states';
import { SectionCard } from '@/components/ui/section-card';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { toastOnError } from '@/lib/error-toast';
import { formatBytes, formatLongDate } from '@/lib/format';

import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../api/api-keys';

// The profile's "API keys" section (Business and Enterprise): create a key with a name, see the
// whole key once with a copy button, list keys (active, then revoked with their revoke date),
// revoke with a confirmation. A key is live or test (sc_test_…, docs/decisions/174): the choice
// sits beside the name, and test keys carry a "Test" badge in the list.

function when(iso: string | null, never = 'Never'): string {
  return iso ? formatLongDate(iso) : never;
}

function NewKeyPanel({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  return (
    <OneTimeSecret
      title={<>Your new key “{created.name}”</>}
      warning="Copy it now: this is the only time the whole key is shown. Store it in a secret manager."
      secret={created.key}
      testId="new-api-key"
      copyLabel="Copy key"
      onCopied={() => toast({ title: 'Copied!' })}
      onDone={onDone}
    />
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const creation = useCreateApiKey();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(createApiKeyInputSchema),
    defaultValues: { name: '', mode: 'live' as const },
  });

  const onSubmit = handleSubmit(
    (values) =>
      creation.mutate(values, {
        onSuccess: (created) => {
          reset();
          onCreated(created);
          toast({ title: 'API key created' });
        },
        onError: toastOnError('Failed to create API key'),
      }),
    (invalid) => {
      if (invalid.name) {
        toast({
          variant: 'destructive',
          title: 'Name required',
          description: 'Please enter a name for your API key.',
        });
      }
    },
  );

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-3">
      <fieldset>
        <legend className="text-sm font-medium text-zinc-900">Mode</legend>
        <div className="mt-1.5 flex flex-wrap gap-x-6 gap-y-2 text-sm text-zinc-800">
          <label className="inline-flex items-center gap-2">
            <input type="radio" value="live" {...register('mode')} className="size-4" />
            Live
          </label>
          <label className="inline-flex items-center gap-2">
            <input type="radio" value="test" {...register('mode')} className="size-4" />
            Test (<code className="font-mono text-[13px]">sc_test_…</code>)
          </label>
        </div>
        <p className="mt-1 text-[13px] text-zinc-600">
          Test keys run full validations and webhooks, marked <code>livemode: false</code>, never
          count against your monthly validations, accept files up to{' '}
          {formatBytes(TEST_MODE_MAX_FILE_BYTES)} and {TEST_MODE_RATE_PER_MINUTE} requests a minute.
        </p>
      </fieldset>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="flex-1">
          <FormField id="api-key-name" label="Key name" error={errors.name?.message}>
            {(field) => (
              <Input
                {...field}
                {...register('name')}
                placeholder="e.g. Nightly import"
                autoComplete="off"
                maxLength={100}
              />
            )}
          </FormField>
        </div>
        <Button type="submit" className="sm:mt-7" disabled={creation.isPending}>
          {creation.isPending ? <Spinner /> : <KeyRound aria-hidden="true" />}
          {creation.isPending ? 'Creating...' : 'Create key'}
        </Button>
      </div>
    </form>
  );
}

function RevokeDialog({ apiKey, onClose }: { apiKey: ApiKeyItem | null; onClose: () => void }) {
  const revocation = useRevokeApiKey();
  const revoke = () => {
    if (!apiKey) return;
    revocation.mutate(apiKey.id, {
      onSuccess: () => {
        toast({ title: 'API key revoked' });
        onClose();
      },
      onError: toastOnError('Failed to revoke key'),
    });
  };
  return (
    <ConfirmDialog
      open={apiKey !== null}
      onClose={onClose}
      title={<>Revoke “{apiKey?.name}”?</>}
      description={
        <>
          Requests with this key ({apiKey?.keyPrefix}…) will be refused from the next one on. This
          cannot be undone.
        </>
      }
      confirmLabel="Revoke key"
      pendingLabel="Revoking..."
      pending={revocation.isPending}
      onConfirm={revoke}
    />
  );
}

function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKeyItem; onRevoke?: () => void }) {
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-zinc-900">
          <span className="break-all">{apiKey.name}</span>
          {apiKey.mode === 'test' ? <Badge variant="default">Test</Badge> : null}
          {apiKey.revokedAt ? (
            <Badge variant="neutral">Revoked {when(apiKey.revokedAt)}</Badge>
          ) : (
            <Badge variant="success">Active</Badge>
          )}
        </p>
        <p className="mt-1 text-[13px] text-zinc-600">
          <code className="font-mono text-zinc-800">{apiKey.keyPrefix}…</code>
          <span aria-hidden="true"> · </span>
          <span className="sr-only">, </span>
          Created {when(apiKey.createdAt)}
          <span aria-hidden="true"> · </span>
          <span className="sr-only">, </span>
          Last used {when(apiKey.lastUsedAt)}
        </p>
      </div>
      {onRevoke ? (
        <Button
          variant="outline"
          size="sm"
          onClick={onRevoke}
          aria-label={`Revoke ${apiKey.name}`}
          className="self-start sm:self-center"
        >
          Revoke
        </Button>
      ) : null}
    </li>
  );
}

function KeyList() {
  const keys = useApiKeys();
  const [revoking, setRevoking] = useState<ApiKeyItem | null>(null);
  if (keys.isPending) {
    return <LoadingState>Loading your keys...</LoadingState>;
  }
  if (keys.isError) {
    return (
      <LoadErrorState onRetry={() => void keys.refetch()}>
        Your keys could not be loaded.
      </LoadErrorState>
    );
  }
  const active = keys.data.filter((k) => k.revokedAt === null);
  const revoked = keys.data.filter((k) => k.revokedAt !== null);
  return (
    <>
      <h3 className="mt-6 text-sm font-semibold text-zinc-900">Active keys</h3>
      {active.length === 0 ? (
        <EmptyState className="mt-2">
          No active keys yet. Create one to call the API from your pipeline.
        </EmptyState>
      ) : (
        <ul className="mt-1 divide-y divide-zinc-200" aria-label="Active keys">
          {active.map((k) => (
            <KeyRow key={k.id} apiKey={k} onRevoke={() => setRevoking(k)} />
          ))}
        </ul>
      )}
      {revoked.length > 0 ? (
        <>
          <h3 className="mt-6 text-sm font-semibold text-zinc-900">Revoked keys</h3>
          <ul className="mt-1 divide-y divide-zinc-200" aria-label="Revoked keys">
            {revoked.map((k) => (
              <KeyRow key={k.id} apiKey={k} />
            ))}
          </ul>
        </>
      ) : null}
      <RevokeDialog apiKey={revoking} onClose={() => setRevoking(null)} />
    </>
  );
}

/** The section, for Business and Enterprise users only. */
export function ApiKeysSection({ user, className }: { user: PublicUser; className?: string }) {
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  if (!PLANS[user.subscriptionTier].limits.apiAccess) return null;
  return (
    <SectionCard
      id="api-keys-heading"
      title="API keys"
      link={{ to: paths.apiDocs, label: 'API documentation' }}
      description={
        <>
          Keys let your scripts and pipelines call the SchemaCheck API. Send a key as{' '}
          <code className="whitespace-nowrap font-mono text-[13px] text-zinc-800">
            Authorization: Bearer sc_…
          </code>
          ; keep it secret like a password.
        </>
      }
      className={className}
    >
      <div className="mt-5 grid gap-4">
        <CreateKeyForm onCreated={setCreated} />
        {created ? <NewKeyPanel created={created} onDone={() => setCreated(null)} /> : null}
      </div>
      <KeyList />
    </SectionCard>
  );
}

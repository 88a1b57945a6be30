import { zodResolver } from '@hookform/resolvers/zod';
import {
  createApiKeyInputSchema,
  PLANS,
  type ApiKeyItem,
  type CreatedApiKey,
  type PublicUser,
} from '@schemacheck/contracts';
import { Check, Copy, KeyRound, TriangleAlert } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';

import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../api/api-keys';

// The profile's "API keys" section (Business and Enterprise): create a key with a name, see the
// whole key once with a copy button, list keys (active, then revoked with their revoke date),
// revoke with a confirmation.

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

function when(iso: string | null, never = 'Never'): string {
  return iso ? dateFormat.format(new Date(iso)) : never;
}

function CopyKeyButton({ text }: { text: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = window.setTimeout(() => setState('idle'), 2000);
    return () => window.clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
      toast({ title: 'Copied!' });
    } catch {
      setState('failed');
    }
  };
  return (
    <Button variant="outline" size="sm" onClick={() => void copy()} className="shrink-0">
      {state === 'copied' ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
      <span aria-live="polite">
        {state === 'copied' ? 'Copied!' : state === 'failed' ? 'Copy failed' : 'Copy key'}
      </span>
    </Button>
  );
}

function NewKeyPanel({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  return (
    <div
      role="status"
      className="grid gap-3 rounded-lg border border-green-200 bg-green-50 p-4"
      aria-labelledby="new-key-heading"
    >
      <p id="new-key-heading" className="text-sm font-semibold text-green-900">
        Your new key “{created.name}”
      </p>
      <p className="flex gap-2 text-sm text-green-900">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        Copy it now: this is the only time the whole key is shown. Store it in a secret manager.
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <code
          data-testid="new-api-key"
          className="min-w-0 flex-1 break-all rounded-md border border-green-200 bg-white px-3 py-2 font-mono text-[13px] text-zinc-900"
        >
          {created.key}
        </code>
        <CopyKeyButton text={created.key} />
      </div>
      <div>
        <Button variant="ghost" size="sm" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const creation = useCreateApiKey();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm({ resolver: zodResolver(createApiKeyInputSchema), defaultValues: { name: '' } });

  const onSubmit = handleSubmit(
    (values) =>
      creation.mutate(values, {
        onSuccess: (created) => {
          reset();
          onCreated(created);
          toast({ title: 'API key created' });
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Failed to create API key',
            description: getErrorMessage(error, 'Please try again.'),
          }),
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
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
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
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Failed to revoke key',
          description: getErrorMessage(error, 'Please try again.'),
        }),
    });
  };
  return (
    <Dialog open={apiKey !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Revoke “{apiKey?.name}”?</DialogTitle>
          <DialogDescription>
            Requests with this key ({apiKey?.keyPrefix}…) will be refused from the next one on. This
            cannot be undone.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={revocation.isPending}>
              Cancel
            </Button>
          </DialogClose>
          <Button variant="destructive" onClick={revoke} disabled={revocation.isPending}>
            {revocation.isPending ? <Spinner /> : null}
            {revocation.isPending ? 'Revoking...' : 'Revoke key'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKeyItem; onRevoke?: () => void }) {
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-zinc-900">
          <span className="break-all">{apiKey.name}</span>
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
    return (
      <p className="flex items-center gap-2 py-4 text-sm text-zinc-600">
        <Spinner /> Loading your keys...
      </p>
    );
  }
  if (keys.isError) {
    return (
      <div role="alert" className="flex items-center gap-3 py-4 text-sm text-red-700">
        Your keys could not be loaded.
        <Button variant="outline" size="sm" onClick={() => void keys.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const active = keys.data.filter((k) => k.revokedAt === null);
  const revoked = keys.data.filter((k) => k.revokedAt !== null);
  return (
    <>
      <h3 className="mt-6 text-sm font-semibold text-zinc-900">Active keys</h3>
      {active.length === 0 ? (
        <p className="mt-2 rounded-lg border border-dashed border-zinc-300 px-4 py-5 text-center text-sm text-zinc-600">
          No active keys yet. Create one to call the API from your pipeline.
        </p>
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
    <section aria-labelledby="api-keys-heading" className={className}>
      <Card>
        <div className="p-6">
          <div className="flex flex-col gap-1 sm:flex-row sm:items-baseline sm:justify-between">
            <h2 id="api-keys-heading" className="text-base font-semibold text-zinc-900">
              API keys
            </h2>
            <Link
              to={paths.apiDocs}
              className="text-sm font-medium text-indigo-700 underline-offset-4 hover:underline"
            >
              API documentation
            </Link>
          </div>
          <p className="mt-1 max-w-2xl text-sm text-zinc-600">
            Keys let your scripts and pipelines call the SchemaCheck API. Send a key as{' '}
            <code className="whitespace-nowrap font-mono text-[13px] text-zinc-800">
              Authorization: Bearer sc_…
            </code>
            ; keep it secret like a password.
          </p>
          <div className="mt-5 grid gap-4">
            <CreateKeyForm onCreated={setCreated} />
            {created ? <NewKeyPanel created={created} onDone={() => setCreated(null)} /> : null}
          </div>
          <KeyList />
        </div>
      </Card>
    </section>
  );
}

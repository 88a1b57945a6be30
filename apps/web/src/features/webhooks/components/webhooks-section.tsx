import {
  PLANS,
  WEBHOOK_EVENTS_V1,
  type DeliveryV1,
  type PublicUser,
  type WebhookCreatedV1,
  type WebhookEventV1,
  type WebhookV1,
} from '@schemacheck/contracts';
import { Send, TriangleAlert, Webhook } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';

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
import { getErrorMessage } from '@/lib/api-client';
import { toastOnError } from '@/lib/error-toast';
import { formatDateTime } from '@/lib/format';

import {
  useCreateWebhook,
  useDeleteWebhook,
  useDeliveries,
  useEnableWebhook,
  useRedeliver,
  useTestWebhook,
  useWebhooks,
} from '../api/webhooks';

// The profile's "Webhooks" section (Business and Enterprise): register a URL for job.completed
// and job.failed, see its signing secret once, send a test event, read every delivery attempt,
// redeliver one, delete; a webhook switched off after failing for days shows why, with Enable.

const when = (iso: string) => formatDateTime(iso, { seconds: true });

function SecretPanel({ created, onDone }: { created: WebhookCreatedV1; onDone: () => void }) {
  return (
    <OneTimeSecret
      title={`Signing secret for ${created.url}`}
      warning="Copy it now: this is the only time it is shown. Your receiver uses it to verify the webhook-signature header."
      secret={created.secret}
      testId="new-webhook-secret"
      copyLabel="Copy secret"
      onDone={onDone}
    />
  );
}

function CreateForm({ onCreated }: { onCreated: (w: WebhookCreatedV1) => void }) {
  const creation = useCreateWebhook();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventV1[]>([...WEBHOOK_EVENTS_V1]);
  const [error, setError] = useState<string | undefined>();
  const groupId = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = url.trim();
    if (!/^https?:\/\/\S+$/i.test(trimmed)) {
      setError('Enter the https URL that should receive the events.');
      return;
    }
    if (events.length === 0) {
      setError('Choose at least one event.');
      return;
    }
    setError(undefined);
    creation.mutate(
      { url: trimmed, events },
      {
        onSuccess: (created) => {
          setUrl('');
          onCreated(created);
          toast({ title: 'Webhook added' });
        },
        onError: (err) => setError(getErrorMessage(err, 'The webhook could not be added.')),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-3">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="flex-1">
          <FormField id="webhook-url" label="Endpoint URL" error={error}>
            {(field) => (
              <Input
                {...field}
                type="url"
                inputMode="url"
                value={url}
                onChange={(e) => setUrl(e.target.value)}
                placeholder="https://example.com/webhooks/schemacheck"
                autoComplete="off"
                maxLength={2000}
              />
            )}
          </FormField>
        </div>
        <Button type="submit" className="sm:mt-7" disabled={creation.isPending}>
          {creation.isPending ? <Spinner /> : <Webhook aria-hidden="true" />}
          {creation.isPending ? 'Adding...' : 'Add webhook'}
        </Button>
      </div>
      <fieldset className="flex flex-wrap gap-x-5 gap-y-2" aria-describedby={`${groupId}-hint`}>
        <legend className="sr-only">Events</legend>
        <span id={`${groupId}-hint`} className="text-sm text-zinc-600">
          Events:
        </span>
        {WEBHOOK_EVENTS_V1.map((ev) => (
          <label key={ev} className="flex items-center gap-2 text-sm text-zinc-800">
            <input
              type="checkbox"
              className="size-4 rounded border-zinc-300 accent-indigo-600"
              checked={events.includes(ev)}
              onChange={(e) =>
                setEvents((cur) => (e.target.checked ? [...cur, ev] : cur.filter((x) => x !== ev)))
              }
            />
            <code className="font-mono text-[13px]">{ev}</code>
          </label>
        ))}
      </fieldset>
    </form>
  );
}

function DeliveryResult({ d }: { d: DeliveryV1 }) {
  return (
    <>
      <Badge
        variant={
          d.status === 'succeeded' ? 'success' : d.status === 'failed' ? 'danger' : 'neutral'
        }
      >
        {d.status === 'pending'
          ? d.next_attempt_at
            ? `Retry ${when(d.next_attempt_at)}`
            : 'Pending'
          : d.response_status
            ? `${d.response_status}`
            : d.status === 'succeeded'
              ? 'Delivered'
              : 'Failed'}
      </Badge>
      {d.duration_ms !== null ? (
        <span className="ml-2 text-[12px] tabular-nums text-zinc-500">{d.duration_ms} ms</span>
      ) : null}
    </>
  );
}

function DeliveryDetails({ d }: { d: DeliveryV1 }) {
  return (
    <>
      {d.error ? <span className="block break-words text-red-700">{d.error}</span> : null}
      {d.response_excerpt ? (
        <span className="block truncate font-mono" title={d.response_excerpt}>
          {d.response_excerpt}
        </span>
      ) : null}
    </>
  );
}

function RedeliverButton({ d, webhookId }: { d: DeliveryV1; webhookId: string }) {
  const redeliver = useRedeliver();
  if (d.status === 'pending') return null;
  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={redeliver.isPending}
      aria-label={`Redeliver attempt ${d.attempt} of ${d.event} from ${when(d.created_at)}`}
      onClick={() =>
        redeliver.mutate(
          { webhookId, deliveryId: d.id },
          {
            onSuccess: () => toast({ title: 'Redelivery queued' }),
            onError: toastOnError('Redelivery failed'),
          },
        )
      }
    >
      Redeliver
    </Button>
  );
}

function DeliveryRow({ d, webhookId }: { d: DeliveryV1; webhookId: string }) {
  return (
    <tr className="align-top">
      <td className="py-2 pr-3 text-zinc-700">{when(d.created_at)}</td>
      <td className="py-2 pr-3">
        <code className="font-mono text-[12px]">{d.event}</code>
        <span className="block text-[12px] text-zinc-500">attempt {d.attempt}</span>
      </td>
      <td className="whitespace-nowrap py-2 pr-3">
        <DeliveryResult d={d} />
      </td>
      <td className="max-w-[22rem] py-2 pr-3 text-[12px] text-zinc-600">
        <DeliveryDetails d={d} />
      </td>
      <td className="py-2 text-right">
        <RedeliverButton d={d} webhookId={webhookId} />
      </td>
    </tr>
  );
}

/** Phones: one card per attempt, as the results list does: nothing to scroll sideways. */
function DeliveryCard({ d, webhookId }: { d: DeliveryV1; webhookId: string }) {
  return (
    <li className="rounded-lg border border-zinc-200 bg-white px-3 py-2.5 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="min-w-0">
          <code className="font-mono text-[12px] text-zinc-900">{d.event}</code>
          <span className="ml-2 text-[12px] text-zinc-500">attempt {d.attempt}</span>
        </p>
        <p>
          <DeliveryResult d={d} />
        </p>
      </div>
      <p className="mt-1 text-[12px] text-zinc-600">{when(d.created_at)}</p>
      {d.error || d.response_excerpt ? (
        <p className="mt-1 min-w-0 text-[12px] text-zinc-600">
          <DeliveryDetails d={d} />
        </p>
      ) : null}
      <div className="-mb-1 mt-1 flex justify-end">
        <RedeliverButton d={d} webhookId={webhookId} />
      </div>
    </li>
  );
}

function DeliveryLog({ webhook }: { webhook: WebhookV1 }) {
  const deliveries = useDeliveries(webhook.id, true);
  if (deliveries.isPending) {
    return <LoadingState className="py-3">Loading deliveries...</LoadingState>;
  }
  if (deliveries.isError) {
    return (
      <p role="alert" className="py-3 text-sm text-red-700">
        The delivery log could not be loaded.
      </p>
    );
  }
  if (deliveries.data.length === 0) {
    return (
      <p className="py-3 text-sm text-zinc-600">
        No deliveries yet. Send a test event, or run a job through the API.
      </p>
    );
  }
  return (
    <>
      <ol
        className="mt-2 grid gap-2 sm:hidden"
        aria-label={`Delivery attempts to ${webhook.url}, newest first`}
        data-testid="delivery-cards"
      >
        {deliveries.data.map((d) => (
          <DeliveryCard key={d.id} d={d} webhookId={webhook.id} />
        ))}
      </ol>
      <table className="mt-2 hidden w-full text-left text-sm sm:table">
        <caption className="sr-only">Delivery attempts to {webhook.url}, newest first</caption>
        <thead className="text-[12px] uppercase tracking-wide text-zinc-500">
          <tr>
            {['Time', 'Event', 'Result', 'Details'].map((heading) => (
              <th key={heading} scope="col" className="py-1 pr-3 font-medium">
                {heading}
              </th>
            ))}
            <th scope="col" className="py-1 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {deliveries.data.map((d) => (
            <DeliveryRow key={d.id} d={d} webhookId={webhook.id} />
          ))}
        </tbody>
      </table>
    </>
  );
}

function WebhookItem({ webhook, onDelete }: { webhook: WebhookV1; onDelete: () => void }) {
  const [open, setOpen] = useState(false);
  const test = useTestWebhook();
  const enable = useEnableWebhook();
  const logId = useId();
  return (
    <li className="py-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-zinc-900">
            <span className="break-all font-mono text-[13px]">{webhook.url}</span>
            {webhook.is_active ? (
              <Badge variant="success">Active</Badge>
            ) : (
              <Badge variant="danger">Disabled</Badge>
            )}
          </p>
          <p className="mt-1 text-[13px] text-zinc-600">{webhook.events.join(', ')}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={!webhook.is_active || test.isPending}
            onClick={() =>
              test.mutate(webhook.id, {
                onSuccess: () => {
                  setOpen(true);
                  toast({ title: 'Test event queued' });
                },
                onError: toastOnError('Test failed'),
              })
            }
          >
            {test.isPending ? <Spinner /> : <Send aria-hidden="true" />}
            Send test
          </Button>
          <Button
            variant="outline"
            size="sm"
            aria-expanded={open}
            aria-controls={logId}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? 'Hide deliveries' : 'Deliveries'}
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={onDelete}
            aria-label={`Delete ${webhook.url}`}
          >
            Delete
          </Button>
        </div>
      </div>
      {!webhook.is_active ? (
        <div
          role="alert"
          className="mt-3 flex flex-col gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900 sm:flex-row sm:items-center sm:justify-between"
        >
          <p className="flex gap-2">
            <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            <span>
              Deliveries to this URL are switched off
              {webhook.disabled_at ? ` since ${when(webhook.disabled_at)}` : ''}.{' '}
              {webhook.disabled_reason ?? ''} Fix the endpoint, then enable it again.
            </span>
          </p>
          <Button
            size="sm"
            variant="outline"
            disabled={enable.isPending}
            onClick={() =>
              enable.mutate(webhook.id, {
                onSuccess: () => toast({ title: 'Webhook enabled' }),
                onError: toastOnError('Could not enable'),
              })
            }
          >
            Enable
          </Button>
        </div>
      ) : null}
      <div id={logId} hidden={!open}>
        {open ? <DeliveryLog webhook={webhook} /> : null}
      </div>
    </li>
  );
}

function DeleteDialog({ webhook, onClose }: { webhook: WebhookV1 | null; onClose: () => void }) {
  const deletion = useDeleteWebhook();
  const remove = () =>
    webhook &&
    deletion.mutate(webhook.id, {
      onSuccess: () => {
        toast({ title: 'Webhook deleted' });
        onClose();
      },
      onError: toastOnError('Could not delete'),
    });
  return (
    <ConfirmDialog
      open={webhook !== null}
      onClose={onClose}
      title="Delete this webhook?"
      description={
        <>{webhook?.url} will receive no more events, and its delivery log is deleted.</>
      }
      confirmLabel="Delete webhook"
      pendingLabel="Deleting..."
      pending={deletion.isPending}
      onConfirm={remove}
    />
  );
}

function WebhookList() {
  const hooks = useWebhooks();
  const [deleting, setDeleting] = useState<WebhookV1 | null>(null);
  if (hooks.isPending) {
    return <LoadingState>Loading your webhooks...</LoadingState>;
  }
  if (hooks.isError) {
    return (
      <LoadErrorState onRetry={() => void hooks.refetch()}>
        Your webhooks could not be loaded.
      </LoadErrorState>
    );
  }
  if (hooks.data.length === 0) {
    return (
      <EmptyState className="mt-6">
        No webhooks yet. Add one to be told when a job has finished.
      </EmptyState>
    );
  }
  return (
    <>
      <ul className="mt-4 divide-y divide-zinc-200" aria-label="Webhooks">
        {hooks.data.map((w) => (
          <WebhookItem key={w.id} webhook={w} onDelete={() => setDeleting(w)} />
        ))}
      </ul>
      <DeleteDialog webhook={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}

/** The section, for Business and Enterprise users only. */
export function WebhooksSection({ user, className }: { user: PublicUser; className?: string }) {
  const [created, setCreated] = useState<WebhookCreatedV1 | null>(null);
  if (!PLANS[user.subscriptionTier].limits.apiAccess) return null;
  return (
    <SectionCard
      id="webhooks-heading"
      title="Webhooks"
      link={{ to: `${paths.apiDocs}#webhooks`, label: 'Verifying webhooks' }}
      description="SchemaCheck posts a signed JSON message to your URL when a job completes or fails, and retries for about a day if your endpoint is down."
      className={className}
    >
      <div className="mt-5 grid gap-4">
        <CreateForm onCreated={setCreated} />
        {created ? <SecretPanel created={created} onDone={() => setCreated(null)} /> : null}
      </div>
      <WebhookList />
    </SectionCard>
  );
}

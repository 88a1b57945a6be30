import type {
  CreateWebhookInput,
  DeliveryV1,
  WebhookCreatedV1,
  WebhookV1,
} from '@schemacheck/contracts';
import { useQuery } from '@tanstack/react-query';

import { useInvalidatingMutation } from '@/hooks/use-invalidating-mutation';
import { api } from '@/lib/api-client';

// The profile's webhook calls: list, create (the secret in this answer only), delete, enable,
// send a test event, the delivery log and redelivery.

export const webhooksQueryKey = ['webhooks'] as const;
const deliveriesKey = (id: string) => ['webhooks', id, 'deliveries'] as const;
const path = (id: string) => `/api/webhooks/${encodeURIComponent(id)}`;

export function useWebhooks() {
  return useQuery({
    queryKey: webhooksQueryKey,
    queryFn: async () => (await api.get<{ data: WebhookV1[] }>('/api/webhooks')).data,
  });
}

export function useCreateWebhook() {
  return useInvalidatingMutation(
    (input: CreateWebhookInput) => api.post<WebhookCreatedV1>('/api/webhooks', input),
    webhooksQueryKey,
  );
}

export function useDeleteWebhook() {
  return useInvalidatingMutation((id: string) => api.delete<void>(path(id)), webhooksQueryKey);
}

export function useEnableWebhook() {
  return useInvalidatingMutation(
    (id: string) => api.post<WebhookV1>(`${path(id)}/enable`),
    webhooksQueryKey,
  );
}

export function useDeliveries(id: string, open: boolean) {
  return useQuery({
    queryKey: deliveriesKey(id),
    queryFn: async () => (await api.get<{ data: DeliveryV1[] }>(`${path(id)}/deliveries`)).data,
    enabled: open,
    // A pending attempt is about to change: look again shortly.
    refetchInterval: (query) =>
      query.state.data?.some((d) => d.status === 'pending') ? 2000 : false,
  });
}

export function useTestWebhook() {
  return useInvalidatingMutation(
    (id: string) => api.post<DeliveryV1>(`${path(id)}/test`),
    deliveriesKey,
  );
}

export function useRedeliver() {
  return useInvalidatingMutation(
    ({ webhookId, deliveryId }: { webhookId: string; deliveryId: string }) =>
      api.post<DeliveryV1>(
        `${path(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
      ),
    ({ webhookId }) => deliveriesKey(webhookId),
  );
}

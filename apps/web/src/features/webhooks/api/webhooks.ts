import type {
  CreateWebhookInput,
  DeliveryV1,
  WebhookCreatedV1,
  WebhookV1,
} from '@schemacheck/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

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
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateWebhookInput) => api.post<WebhookCreatedV1>('/api/webhooks', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey }),
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(path(id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey }),
  });
}

export function useEnableWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<WebhookV1>(`${path(id)}/enable`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey }),
  });
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
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<DeliveryV1>(`${path(id)}/test`),
    onSuccess: (_d, id) => queryClient.invalidateQueries({ queryKey: deliveriesKey(id) }),
  });
}

export function useRedeliver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ webhookId, deliveryId }: { webhookId: string; deliveryId: string }) =>
      api.post<DeliveryV1>(
        `${path(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
      ),
    onSuccess: (_d, v) => queryClient.invalidateQueries({ queryKey: deliveriesKey(v.webhookId) }),
  });
}

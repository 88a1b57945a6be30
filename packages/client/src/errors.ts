import type { components } from './generated/api.ts';

/** The API's one error shape (every non-2xx answer). */
export type ApiErrorBody = components['schemas']['Error'];

/**
 * A non-2xx answer of the API. `code` is the stable error code (`invalid_api_key`,
 * `monthly_limit`, `file_too_large`, …); `requestId` is what support asks for.
 */
export class SchemaCheckError extends Error {
  override readonly name = 'SchemaCheckError';
  readonly status: number;
  readonly code: string;
  readonly requestId: string | undefined;
  readonly body: ApiErrorBody | undefined;

  constructor(status: number, body: ApiErrorBody | undefined, requestId?: string) {
    super(body?.error ?? `SchemaCheck API answered HTTP ${status}`);
    this.status = status;
    this.code = body?.code ?? `http_${status}`;
    this.requestId = body?.request_id ?? requestId;
    this.body = body;
  }
}

/** Turns an openapi-fetch result into its data, or throws the API's error. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok && result.data !== undefined) return result.data;
  const body = isErrorBody(result.error) ? result.error : undefined;
  throw new SchemaCheckError(
    result.response.status,
    body,
    result.response.headers.get('x-request-id') ?? undefined,
  );
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  return (
    typeof value === 'object' && value !== null && typeof (value as ApiErrorBody).error === 'string'
  );
}

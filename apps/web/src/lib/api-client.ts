import type { ErrorResponse } from '@schemacheck/contracts';

// The one way the app talks to its server (docs/product.md#messages): credentials on every request, a CSRF
// token on every state-changing one, JSON bodies, and one error shape for every failure.

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A non-OK response. The message is `${status}: ${body or statusText}` (docs/product.md#messages). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: string;

  constructor(status: number, statusText: string, body: string) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  /** The server's `{ error, code }` body (contracts' ErrorResponse), when it sent one. */
  get details(): ErrorResponse | null {
    return parseErrorBody(this.body);
  }
}

// Hand-written checks instead of contracts' zod schemas: this module is on every page, and zod
// loads only with the pages that have forms.
function parseErrorBody(body: string): ErrorResponse | null {
  try {
    const value: unknown = JSON.parse(body);
    if (typeof value !== 'object' || value === null) return null;
    const { error, code } = value as Record<string, unknown>;
    if (typeof error !== 'string') return null;
    return typeof code === 'string' ? { error, code } : { error };
  } catch {
    return null;
  }
}

let csrfToken: string | null = null;
let csrfRequest: Promise<string> | null = null;
let csrfGeneration = 0;

/** Forget the cached CSRF token; the server rotates it on login, logout and registration. */
export function clearCsrfToken(): void {
  csrfToken = null;
  csrfRequest = null;
  csrfGeneration += 1;
}

/**
 * Adopt the token a login, registration or logout response carries (the server rotates it with
 * the session); without one, the next state-changing call fetches a fresh token.
 */
export function adoptCsrfToken(response: unknown): void {
  clearCsrfToken();
  const token = (response as { csrfToken?: unknown } | null | undefined)?.csrfToken;
  if (typeof token === 'string' && token) csrfToken = token;
}

async function getCsrfToken(): Promise<string> {
  if (csrfToken) return csrfToken;
  if (!csrfRequest) {
    const generation = csrfGeneration;
    csrfRequest = (async () => {
      let token: string;
      try {
        const response = await fetch(resolveUrl('/api/csrf-token'), {
          credentials: 'include',
          headers: { accept: 'application/json' },
        });
        if (!response.ok) throw new Error('not ok');
        const body = (await response.json()) as { csrfToken?: unknown } | null;
        if (typeof body?.csrfToken !== 'string' || !body.csrfToken) throw new Error('no token');
        token = body.csrfToken;
      } catch {
        throw new Error('Failed to fetch CSRF token');
      } finally {
        if (generation === csrfGeneration) csrfRequest = null;
      }
      if (generation === csrfGeneration) csrfToken = token;
      return token;
    })();
  }
  return csrfRequest;
}

/** Only same-site paths and http(s) URLs are accepted ('Invalid URL' otherwise). */
function resolveUrl(path: string): string {
  let url: URL;
  try {
    url = new URL(path, window.location.origin);
  } catch {
    throw new Error('Invalid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('Invalid URL');
  return url.href;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function request<T>(method: Method, path: string, body?: unknown, retry = true): Promise<T> {
  const url = resolveUrl(path);
  const headers = new Headers({ accept: 'application/json' });
  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body; // the browser sets the multipart boundary
  } else if (body !== undefined) {
    headers.set('content-type', 'application/json');
    payload = JSON.stringify(body);
  }
  const unsafe = UNSAFE_METHODS.has(method);
  if (unsafe) headers.set('x-csrf-token', await getCsrfToken());

  const response = await fetch(url, { method, headers, body: payload, credentials: 'include' });
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    const error = new ApiError(response.status, response.statusText, text);
    // A stale token (the session changed in another tab, or the server restarted): fetch a
    // fresh one and try once more.
    if (unsafe && retry && response.status === 403 && error.details?.code === 'csrf') {
      clearCsrfToken();
      return request<T>(method, path, body, false);
    }
    throw error;
  }
  if (response.status === 204) return undefined as T;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('application/json')) return (await response.json()) as T;
  return (await response.text()) as T;
}

export interface UploadOptions {
  /** Bytes of the request body sent so far, and the total (XMLHttpRequest upload progress). */
  onUploadProgress?: (loaded: number, total: number) => void;
  /** Called once the whole body has left the browser. */
  onUploadDone?: () => void;
  signal?: AbortSignal;
}

/**
 * POST a multipart form with real upload progress. fetch() cannot report the progress of a
 * request body, so this uses XMLHttpRequest, with the same credentials, CSRF token (and one retry
 * on a stale token) and error shape as `request`.
 */
export async function upload<T>(
  path: string,
  form: FormData,
  options: UploadOptions = {},
  retry = true,
): Promise<T> {
  const url = resolveUrl(path);
  const token = await getCsrfToken();
  const result = await new Promise<{
    status: number;
    statusText: string;
    body: string;
    type: string;
  }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('x-csrf-token', token);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onUploadProgress?.(event.loaded, event.total);
    };
    xhr.upload.onload = () => options.onUploadDone?.();
    xhr.onload = () =>
      resolve({
        status: xhr.status,
        statusText: xhr.statusText,
        body: xhr.responseText,
        type: xhr.getResponseHeader('content-type') ?? '',
      });
    xhr.onerror = () => reject(new TypeError('Failed to fetch'));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    if (options.signal) {
      if (options.signal.aborted) {
        reject(new DOMException('The upload was cancelled.', 'AbortError'));
        return;
      }
      options.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(form);
  });
  if (result.status < 200 || result.status >= 300) {
    const error = new ApiError(result.status, result.statusText, result.body);
    if (retry && result.status === 403 && error.details?.code === 'csrf') {
      clearCsrfToken();
      return upload<T>(path, form, options, false);
    }
    throw error;
  }
  if (result.type.includes('application/json')) return JSON.parse(result.body) as T;
  return result.body as unknown as T;
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body),
  patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, body),
  delete: <T>(path: string, body?: unknown) => request<T>('DELETE', path, body),
};

/**
 * The text to show a user for a failed call: the server's `error` field when the body carries
 * one, otherwise the given fallback (network failures, HTML error pages, empty bodies).
 */
export function getErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.details?.error || fallback;
  if (error instanceof Error) {
    // An error built elsewhere in the same shape: "403: {"error":"..."}".
    const separator = error.message.indexOf(': ');
    if (separator > 0 && /^\d{3}$/.test(error.message.slice(0, separator))) {
      const details = parseErrorBody(error.message.slice(separator + 2));
      if (details?.error) return details.error;
    }
  }
  return fallback;
}

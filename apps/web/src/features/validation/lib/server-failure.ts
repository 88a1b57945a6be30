import { WORKSPACE_ERROR_CODES } from '@schemacheck/contracts';

import { ApiError } from '@/lib/api-client';

/** The workspace's error codes (contracts' WORKSPACE_ERROR_CODES), plus the server's `internal`. */
export type WorkspaceErrorCode = (typeof WORKSPACE_ERROR_CODES)[keyof typeof WORKSPACE_ERROR_CODES];

/** A failed call to the server as the workspace reads it: a typed code, the words, the problems. */
export interface ServerFailure {
  /** null for a code the workspace does not act on (or no JSON body at all). */
  code: WorkspaceErrorCode | null;
  /** The server's `error` text, or the part of "413: ..." after ': ', or the fallback. */
  message: string;
  /** An invalid schema's problems by path (empty otherwise). */
  problems: { path: string; message: string }[];
  /** Whether the body carried the server's own words (not `internal`, not a fallback). */
  fromServer: boolean;
}

const KNOWN_CODES: ReadonlySet<string> = new Set(Object.values(WORKSPACE_ERROR_CODES));

interface ErrorBody {
  error?: unknown;
  code?: unknown;
  problems?: unknown;
}

function bodyOf(error: unknown): ErrorBody | null {
  if (!(error instanceof ApiError)) return null;
  try {
    const value = JSON.parse(error.body) as unknown;
    return typeof value === 'object' && value !== null ? (value as ErrorBody) : null;
  } catch {
    return null;
  }
}

function problemsOf(value: unknown): ServerFailure['problems'] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (p): p is { path: string; message: string } =>
      typeof p === 'object' &&
      p !== null &&
      typeof (p as { path?: unknown }).path === 'string' &&
      typeof (p as { message?: unknown }).message === 'string',
  );
}

/** docs/product.md#messages: read one failed call once, so no component parses a body. */
export function serverFailure(error: unknown, fallback: string): ServerFailure {
  const body = bodyOf(error);
  const code =
    typeof body?.code === 'string' && KNOWN_CODES.has(body.code)
      ? (body.code as WorkspaceErrorCode)
      : null;
  const problems = problemsOf(body?.problems);
  if (typeof body?.error === 'string' && body.error) {
    return { code, message: body.error, problems, fromServer: body.code !== 'internal' };
  }
  if (error instanceof Error && error.message.includes(': ')) {
    const message = error.message.slice(error.message.indexOf(': ') + 2);
    return { code, message, problems, fromServer: false };
  }
  return { code, message: fallback, problems, fromServer: false };
}

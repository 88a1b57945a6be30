import type { ServerFailure } from './server-failure';

/** Which upgrade dialog opens, and the figures it names. */
export type UpgradeReason =
  | { kind: 'file_too_large'; fileName?: string; fileSize?: number; message?: string }
  | { kind: 'row_limit'; fileName?: string; message?: string }
  | { kind: 'monthly_limit'; message?: string; resetDate?: string }
  | { kind: 'save_locked' }
  | { kind: 'load_locked' }
  | { kind: 'export_locked' };

/**
 * The dialog a refused validation opens, chosen by the error code alone (contracts'
 * WORKSPACE_ERROR_CODES); null when the refusal is a toast instead.
 */
export function upgradeForFailure(
  failure: ServerFailure,
  file: File | null,
  resetDate: string | undefined,
): UpgradeReason | null {
  const message = failure.message;
  switch (failure.code) {
    case 'file_too_large':
      return {
        kind: 'file_too_large',
        message,
        ...(file ? { fileName: file.name, fileSize: file.size } : {}),
      };
    case 'row_limit':
      return { kind: 'row_limit', message, ...(file ? { fileName: file.name } : {}) };
    case 'monthly_limit':
      return { kind: 'monthly_limit', message, ...(resetDate ? { resetDate } : {}) };
    default:
      return null;
  }
}

import { RESULT_RETENTION_DAYS, type ValidateResponse } from '@schemacheck/contracts';
import type { ValidationResult } from '@schemacheck/engine';
import { and, eq, inArray, isNotNull, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { validationResults } from '../db/schema.ts';
import { storableJson } from '../lib/unicode.ts';
import type { Storage } from '../storage/index.ts';
import { deleteRowOutputs } from '../reports/row-outputs.ts';
import { isUuid } from '../lib/uuid.ts';
import type { FileType } from '@schemacheck/engine';

// Stored validation results: the summary and the first errors in the database, the full list as
// a CSV report in storage (docs/decisions/031), both deleted after RESULT_RETENTION_DAYS (033).

export type ResultRow = typeof validationResults.$inferSelect;

/** Kept here for the modules that import it from results.ts; its home is lib/uuid.ts. */

/** Storage key of a result's report: the server's ids only. */
export function reportKeyFor(userId: string, resultId: string): string {
  return `${userId}/${resultId}.csv`;
}

export function toResponse(row: ResultRow, reportAvailable: boolean): ValidateResponse {
  const summary = row.summary as Pick<
    ValidateResponse,
    'warnings' | 'warningCount' | 'warningIssues'
  >;
  return {
    id: row.id,
    fileName: row.fileName,
    fileType: row.fileType,
    fileSize: row.fileSize,
    success: row.errorCount === 0,
    totalRows: row.totalRows,
    validRows: row.validRows,
    invalidRows: row.invalidRows,
    errorCount: row.errorCount,
    errors: row.errors as ValidateResponse['errors'],
    errorsByField: row.errorsByField as Record<string, number>,
    errorsByCode: row.errorsByCode as Record<string, number>,
    warnings: summary.warnings ?? [],
    ...(summary.warningCount
      ? { warningCount: summary.warningCount, warningIssues: summary.warningIssues ?? [] }
      : {}),
    reportAvailable: reportAvailable && row.reportKey !== null,
  };
}

export interface NewResult {
  id: string;
  userId: string;
  schemaId?: string | undefined;
  fileName: string;
  fileType: FileType;
  jsonShape?: 'ndjson' | undefined;
  bytes: number;
  durationMs: number;
  result: ValidationResult;
  schemaUsed: unknown;
  reportKey: string | null;
  createdAt: Date;
}

/**
 * Stores a finished validation: the summary, the first errors and where its report is. Values,
 * field names and paths from the user's file may hold U+0000 or lone surrogates, which the
 * database refuses: they are stored as U+FFFD (docs/decisions/060).
 */
export async function insertResult(db: Db, r: NewResult): Promise<ResultRow> {
  const { result } = r;
  const [row] = await db
    .insert(validationResults)
    .values({
      id: r.id,
      userId: r.userId,
      schemaId: r.schemaId ?? null,
      fileName: r.fileName,
      fileSize: r.bytes,
      fileType: r.fileType,
      totalRows: result.totalRows,
      validRows: result.validRows,
      invalidRows: result.invalidRows,
      errorCount: result.errorCount,
      errors: storableJson(result.errors),
      errorsByField: storableJson(result.errorsByField),
      errorsByCode: result.errorsByCode,
      summary: storableJson({
        valid: result.valid,
        warnings: result.warnings,
        // Failures of rules marked as warnings (docs/decisions/202), counted apart from errors.
        ...(result.warningCount
          ? { warningCount: result.warningCount, warningIssues: result.warningIssues ?? [] }
          : {}),
        durationMs: r.durationMs,
        ...(r.jsonShape ? { jsonShape: r.jsonShape } : {}),
      }),
      schemaUsed: storableJson(r.schemaUsed),
      reportKey: r.reportKey,
      createdAt: r.createdAt,
    })
    .returning();
  return row!;
}

/** The user's result, or undefined (unknown, ill-formed or someone else's id). */
export async function findOwnResult(
  db: Db,
  userId: string,
  id: string,
): Promise<ResultRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select()
    .from(validationResults)
    .where(and(eq(validationResults.id, id), eq(validationResults.userId, userId)));
  return row;
}

const PURGE_BATCH = 500;

/**
 * Deletes results older than the retention period and their reports, in batches: files first,
 * then rows, so that a failure leaves rows to retry rather than files nobody points to.
 */
export async function purgeExpiredResults(
  db: Db,
  storage: Storage,
  now: Date,
  log?: FastifyBaseLogger,
): Promise<number> {
  const cutoff = new Date(now.getTime() - RESULT_RETENTION_DAYS * 24 * 60 * 60 * 1000);
  let total = 0;
  for (;;) {
    const batch = await db
      .select({
        id: validationResults.id,
        userId: validationResults.userId,
        reportKey: validationResults.reportKey,
      })
      .from(validationResults)
      .where(lt(validationResults.createdAt, cutoff))
      .limit(PURGE_BATCH);
    if (batch.length === 0) break;
    for (const r of batch) {
      if (!r.reportKey) continue;
      await storage.delete(r.reportKey);
      // The valid and invalid rows are written with the report (decision 205).
      if (r.userId) await deleteRowOutputs(storage, r.userId, r.id);
    }
    await db.delete(validationResults).where(
      inArray(
        validationResults.id,
        batch.map((r) => r.id),
      ),
    );
    total += batch.length;
    if (batch.length < PURGE_BATCH) break;
  }
  log?.info({ deleted: total, cutoff: cutoff.toISOString() }, 'Expired validation results purged');
  return total;
}

/** Removes every report file of a user (account deletion; the rows go with the user). */
export async function deleteUserReports(db: Db, storage: Storage, userId: string): Promise<void> {
  const rows = await db
    .select({ reportKey: validationResults.reportKey })
    .from(validationResults)
    .where(and(eq(validationResults.userId, userId), isNotNull(validationResults.reportKey)));
  for (const r of rows) await storage.delete(r.reportKey!);
}

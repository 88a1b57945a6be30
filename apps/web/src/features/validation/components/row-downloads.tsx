import { Download } from 'lucide-react';

// The rows that passed and the rows that failed of a stored validation (docs/decisions/205),
// kept with its full report: plain links, so the browser streams the server's download (named
// by its Content-Disposition) instead of holding it in memory. CSV for CSV and Excel input,
// JSON or NDJSON for JSON.

const linkClass =
  'inline-flex items-center gap-1.5 rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 shadow-sm hover:bg-zinc-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600';

export function RowDownloads({
  resultId,
  fileName,
  validRows,
  invalidRows,
}: {
  resultId: string;
  fileName: string;
  validRows: number;
  invalidRows: number;
}) {
  const base = `/api/validation-results/${encodeURIComponent(resultId)}`;
  const count = (n: number) => n.toLocaleString('en-GB');
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="row-downloads">
      <span className="text-sm text-zinc-700">Rows back:</span>
      <a
        href={`${base}/valid-rows`}
        download
        className={linkClass}
        aria-label={`Download the ${count(validRows)} valid rows of ${fileName}`}
      >
        <Download aria-hidden="true" className="size-4" />
        Valid rows ({count(validRows)})
      </a>
      <a
        href={`${base}/invalid-rows`}
        download
        className={linkClass}
        aria-label={`Download the ${count(invalidRows)} invalid rows of ${fileName}, with their errors`}
      >
        <Download aria-hidden="true" className="size-4" />
        Invalid rows ({count(invalidRows)})
      </a>
    </div>
  );
}

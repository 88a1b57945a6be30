// A workbook's map: which sheets it has (names in tab order), where each sheet's XML lives, the
// date system, the cell styles and the shared strings, all read once before any sheet is scanned.
// The zip's random access is what allows this whatever order the parts were written in.

import { refuse } from '../archive/refusal.ts';
import type { ZipArchive } from '../archive/zip.ts';
import { readPart, relsPath, resolveTarget } from './parts.ts';
import { readSharedStrings, type SharedStrings } from './shared-strings.ts';
import { readStyles } from './styles.ts';
import { attribute, rootPrefix, startTags } from './xml.ts';

export interface SheetInfo {
  name: string;
  /** 1-based position among the workbook's tabs, as a user counts them. */
  position: number;
  /** Zip path of the sheet's XML. */
  path: string;
  hidden: boolean;
  /** Chart sheets and dialog sheets hold no cells. */
  isWorksheet: boolean;
}

export interface Workbook {
  readonly zip: ZipArchive;
  readonly sheets: SheetInfo[];
  /** The 1904 date system (old Mac workbooks): serial 0 is 1904-01-01. */
  readonly date1904: boolean;
  /** Per cell style (`s`): 0 number, 1 date, 2 date-time, 3 time. */
  readonly styles: Uint8Array;
  readonly sharedStrings: SharedStrings;
}

/** True when the zip is an Office Open XML package with a workbook (xlsx, xlsm) or an xlsb. */
export function workbookKind(zip: ZipArchive): 'xlsx' | 'xlsb' | null {
  if (zip.find('xl/workbook.bin')) return 'xlsb';
  if (zip.find('[Content_Types].xml') && (zip.find('xl/workbook.xml') || zip.find('_rels/.rels')))
    return zip.entries.some((e) => /\.bin$/i.test(e.name) && /^xl\/worksheets\//i.test(e.name))
      ? 'xlsb'
      : 'xlsx';
  return null;
}

export async function openWorkbook(zip: ZipArchive, name: string): Promise<Workbook> {
  const kind = workbookKind(zip);
  if (kind === 'xlsb') {
    refuse(
      'xlsb',
      `${name} is an Excel binary workbook (.xlsb), which is not read: save it as .xlsx or CSV`,
    );
  }
  if (kind === null) refuse('not_a_workbook', `${name} is a zip file but not an Excel workbook`);

  const rootRels = await readPart(zip, '_rels/.rels', 'the package relationships');
  let workbookPath = 'xl/workbook.xml';
  if (rootRels !== null) {
    for (const tag of startTags(rootRels, `${rootPrefix(rootRels, 'Relationships')}Relationship`)) {
      if (/\/officeDocument$/.test(attribute(tag, 'Type') ?? '')) {
        workbookPath = resolveTarget('', attribute(tag, 'Target') ?? workbookPath);
      }
    }
  }
  const workbookXml = await readPart(zip, workbookPath, 'the workbook');
  if (workbookXml === null)
    refuse('not_a_workbook', `${name} has no workbook part (${workbookPath})`);
  const wb = workbookXml as string;
  const rels = (await readPart(zip, relsPath(workbookPath), 'the workbook relationships')) ?? '';
  const targets = new Map<string, { type: string; path: string }>();
  for (const tag of startTags(rels, `${rootPrefix(rels, 'Relationships')}Relationship`)) {
    const target = attribute(tag, 'Target');
    if (target === undefined || attribute(tag, 'TargetMode') === 'External') continue;
    targets.set(attribute(tag, 'Id') ?? '', {
      type: (attribute(tag, 'Type') ?? '').replace(/^.*\//, ''),
      path: resolveTarget(workbookPath, target),
    });
  }
  const partOf = (type: string) => [...targets.values()].find((t) => t.type === type)?.path ?? null;

  const p = rootPrefix(wb, 'workbook');
  const pr = [...startTags(wb, `${p}workbookPr`)][0];
  const date1904 = pr !== undefined && /^(1|true)$/.test(attribute(pr, 'date1904') ?? '');
  const sheets: SheetInfo[] = [];
  for (const tag of startTags(wb, `${p}sheet`)) {
    // The relationship id attribute is r:id, with whatever prefix the writer bound.
    const id = /\s[\w.-]*:?id\s*=\s*["']([^"']*)["']/.exec(tag.replace(/\ssheetId=/, ' x='))?.[1];
    const target = id === undefined ? undefined : targets.get(id);
    sheets.push({
      name: attribute(tag, 'name') ?? `Sheet${sheets.length + 1}`,
      position: sheets.length + 1,
      path: target?.path ?? '',
      hidden: /hidden/i.test(attribute(tag, 'state') ?? ''),
      isWorksheet: target?.type === 'worksheet',
    });
  }
  const styles = readStyles(await readPart(zip, partOf('styles') ?? 'xl/styles.xml', 'the styles'));
  const sharedStrings = await readSharedStrings(
    zip,
    partOf('sharedStrings') ?? 'xl/sharedStrings.xml',
  );
  return { zip, sheets, date1904, styles, sharedStrings };
}

/**
 * The sheet to read: by name (exact, then ignoring case), else by 1-based position; the first
 * visible worksheet when none is asked for.
 */
export function pickSheet(
  workbook: Workbook,
  wanted: string | number | undefined,
  name: string,
): SheetInfo {
  const { sheets } = workbook;
  let sheet: SheetInfo | undefined;
  if (wanted === undefined) {
    // The first sheet a user sees: hidden sheets (lookups, settings) come after, whatever their place.
    sheet = sheets.find((s) => s.isWorksheet && !s.hidden) ?? sheets.find((s) => s.isWorksheet);
  } else {
    const text = String(wanted);
    sheet =
      sheets.find((s) => s.name === text) ??
      sheets.find((s) => s.name.toLowerCase() === text.toLowerCase()) ??
      (/^\d+$/.test(text) ? sheets[Number(text) - 1] : undefined);
  }
  const list = sheets.map((s) => `${s.position}: ${s.name}`).join(', ');
  if (!sheet) {
    return refuse(
      'sheet_not_found',
      wanted === undefined
        ? `${name} has no worksheet`
        : `${name} has no sheet ${JSON.stringify(String(wanted))}; its sheets are ${list}`,
    );
  }
  if (!sheet.isWorksheet || !workbook.zip.find(sheet.path)) {
    return refuse(
      'sheet_not_found',
      `${sheet.name} in ${name} is not a worksheet with cells; its sheets are ${list}`,
    );
  }
  return sheet;
}

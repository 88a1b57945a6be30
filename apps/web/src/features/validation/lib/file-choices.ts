import { blobSource, openWorkbook, openZip, planInputs, webPlatform } from '@schemacheck/engine';
import { useEffect, useState } from 'react';

// Which part of a file to validate, asked before validating (docs/decisions/206): the sheet of
// a workbook with several worksheets, the data file of a zip with several. Read here with the
// engine, from the zip's directory and the workbook's list of sheets only (a few KB), whether
// the file is then validated on this device or uploaded. The chosen value is what the engine,
// the API and the CLI take as `sheet` (a name) and `entry` (a path inside the zip).

export interface FileChoices {
  kind: 'sheet' | 'entry';
  /** Sheet names, or entry paths, in the file's order. */
  options: string[];
}

/** What the user picked, sent as `sheet` or `entry`. */
export interface InputChoice {
  sheet?: string;
  entry?: string;
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

/** The choices a file offers, or null when it has one thing to validate (or none). */
export async function fileChoices(file: File): Promise<FileChoices | null> {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  if (!ZIP_MAGIC.every((b, i) => head[i] === b)) return null;
  try {
    if (/\.xls[xm]$/i.test(file.name)) {
      const zip = await openZip(blobSource(file), webPlatform.inflateRaw, {}, file.name);
      const workbook = await openWorkbook(zip, file.name);
      const sheets = workbook.sheets.filter((s) => s.isWorksheet).map((s) => s.name);
      return sheets.length > 1 ? { kind: 'sheet', options: sheets } : null;
    }
    const planned = await planInputs(file.name, blobSource(file), webPlatform);
    if (planned.length < 2) return null;
    return { kind: 'entry', options: planned.map((p) => p.name.slice(file.name.length + 1)) };
  } catch {
    // A damaged or refused file: validating it says why, with the engine's words.
    return null;
  }
}

/** The choices of `file` and the one picked (the first until the user picks another). */
export function useFileChoice(file: File | null) {
  const [state, setState] = useState<{
    file: File | null;
    choices: FileChoices | null;
    value: string;
  }>({ file: null, choices: null, value: '' });
  useEffect(() => {
    let live = true;
    if (!file) {
      setState({ file: null, choices: null, value: '' });
      return;
    }
    void fileChoices(file).then((choices) => {
      if (live) setState({ file, choices, value: choices?.options[0] ?? '' });
    });
    return () => {
      live = false;
    };
  }, [file]);
  const current = state.file === file ? state : { file, choices: null, value: '' };
  const choice: InputChoice =
    current.choices && current.value ? { [current.choices.kind]: current.value } : {};
  return {
    choices: current.choices,
    value: current.value,
    choice,
    setValue: (value: string) => setState((s) => ({ ...s, value })),
  };
}

// JSON: each record is walked along the schema's field tree (dotted names reach nested objects),
// with JSON typing, and every issue carries its JSON path.

import { createJsonReader, type JsonReaderOptions } from '../json/reader.ts';
import type { Issue } from '../model.ts';
import type { Failure } from './compile.ts';
import { describeJsonValue, jsonValueText } from './issue-value.ts';
import {
  buildJsonTree,
  isJsonObject,
  pathSegment,
  slotReading,
  slotText,
  type JsonNode,
  type SlotReading,
} from './json-fields.ts';
import { createQuickRecord } from './json-quick.ts';
import { createJsonByteRecords } from './json-bytes.ts';
import { messages } from './messages.ts';
import { REQUIRED, fieldIssue, ruleIssue, type RecordSource, type Run } from './run.ts';
import { RowView, type CompiledRules, type RuleFailure } from './cross-field.ts';
import type { CompiledField } from './compile.ts';
import type { FieldSpec } from '../model.ts';

export function jsonRecords(run: Run): RecordSource {
  const { collector, options } = run;
  if (options.delimiter !== undefined) {
    collector.warn({
      code: 'ignored_option',
      message: messages.ignoredOption('delimiter', 'JSON'),
    });
  }
  const readerOptions: JsonReaderOptions = {};
  if (options.jsonShape !== undefined) readerOptions.shape = options.jsonShape;
  const root = buildJsonTree(run.schema, run.fields);
  const out: Failure[] = [];

  const report = (row: number, base: string, node: JsonNode, f: Failure, value: string | null) => {
    const path = base + node.relPath;
    const field = node.field;
    if (field === undefined) {
      collector.rowIssue({ row, field: node.name, code: f.code, message: f.message, value, path });
      return;
    }
    const issue = fieldIssue(row, field, f, value, value ?? '');
    issue.field = node.name;
    issue.path = path;
    collector.rowIssue(issue);
  };

  // Cross-field rules: each slot's property names and JSON path below the record.
  const rules = run.rules;
  const view = rules === undefined ? undefined : new RowView(rules.slotFields.length);
  const slotSpecs = (rules?.slotFields ?? []).map((k) => run.schema.fields[k] as FieldSpec);
  const slotKeys = slotSpecs.map((spec) => spec.path ?? spec.name.split('.'));
  const slotReadings = slotSpecs.map(slotReading);
  const relPaths = run.schema.fields.map((spec) =>
    (spec.path ?? spec.name.split('.')).map(pathSegment).join(''),
  );
  const quickRules = rules === undefined ? undefined : { rules, slotKeys, slotReadings };
  const ruleFailures: RuleFailure[] = [];
  const checkRules = (obj: Record<string, unknown>, row: number, base: string) => {
    const v = view as RowView;
    for (let s = 0; s < slotKeys.length; s++)
      readSlot(v, s, obj, slotKeys[s] as string[], slotReadings[s] as SlotReading);
    (rules as CompiledRules).checkRow(v, row, ruleFailures);
    (rules as CompiledRules).checkKeys(v, row, ruleFailures);
    for (const f of ruleFailures) {
      const issue = ruleIssue(row, run.fields[f.fieldIndex] as CompiledField, f);
      issue.path = base + (relPaths[f.fieldIndex] as string);
      collector.rowIssue(issue);
    }
    ruleFailures.length = 0;
  };

  /** Checks the fields under `parent` in `obj`; `base` is the record's path (`$[3]`). */
  const checkObject = (
    obj: Record<string, unknown>,
    parent: JsonNode,
    row: number,
    base: string,
  ) => {
    const children = parent.children;
    for (let i = 0; i < children.length; i++) {
      const child = children[i] as JsonNode;
      const value = child.inherited && !Object.hasOwn(obj, child.key) ? undefined : obj[child.key];
      if (value === undefined || value === null) {
        for (const required of child.requiredBelow) report(row, base, required, REQUIRED, null);
        continue;
      }
      const field = child.field;
      if (field !== undefined) {
        field.checkJson(value, row, out);
        if (out.length !== 0) {
          const shown = jsonValueText(value);
          for (let j = 0; j < out.length; j++) report(row, base, child, out[j] as Failure, shown);
          out.length = 0;
        }
      }
      if (!child.object) continue;
      if (isJsonObject(value)) {
        checkObject(value, child, row, base);
      } else if (field === undefined) {
        const keys = child.children.map((c) => c.key);
        const notObject: Failure = { code: 'type', message: messages.jsonObject(keys) };
        report(row, base, child, notObject, jsonValueText(value));
      }
    }
    if (parent.strict) reportAdditional(obj, parent, row, base);
  };

  /** Properties the schema does not describe, in the record and in objects it describes. */
  const reportAdditional = (
    obj: Record<string, unknown>,
    parent: JsonNode,
    row: number,
    base: string,
  ) => {
    for (const key of Object.keys(obj)) {
      if (parent.childKeys.has(key)) continue;
      const name = parent.name === '' ? key : `${parent.name}.${key}`;
      collector.rowIssue({
        row,
        field: name,
        code: 'additional_property',
        message: messages.additionalProperty(name),
        value: jsonValueText(obj[key]),
        path: base + parent.relPath + pathSegment(key),
      });
    }
  };

  return createJsonReader(
    {
      quickRecord: createQuickRecord(root, (row) => run.startRow(row), quickRules),
      byteRecords: createJsonByteRecords(run, root, quickRules),

      record(value, row, path) {
        if (!run.startRow(row)) return;
        if (isJsonObject(value)) {
          checkObject(value, root, row, path);
          if (rules !== undefined) checkRules(value, row, path);
          return;
        }
        collector.rowIssue({
          row,
          field: '',
          code: 'not_an_object',
          message: messages.notAnObject(describeJsonValue(value)),
          value: jsonValueText(value),
          path,
        });
      },

      issue(row, code, message, path) {
        const issue: Issue = { row, field: '', code, message, value: null, path };
        if (row < 1) {
          if (!run.stopped) collector.add(issue);
        } else if (run.startRow(row)) {
          collector.rowIssue(issue);
        }
      },

      warning(warning) {
        collector.warn(warning);
      },
    },
    readerOptions,
    run.jsonChunk,
  );
}

/**
 * A rule slot's value in a record: absent when missing or null; its text when it is a scalar of
 * the JSON type the field takes (slotReading); otherwise present but never compared.
 */
function readSlot(
  view: RowView,
  slot: number,
  record: Record<string, unknown>,
  keys: readonly string[],
  reading: SlotReading,
): void {
  let value: unknown = record;
  for (const key of keys) {
    if (!isJsonObject(value) || !Object.hasOwn(value, key)) {
      view.absent(slot);
      return;
    }
    value = value[key];
  }
  if (value === null || value === undefined) {
    view.absent(slot);
    return;
  }
  const text = slotText(reading, value);
  // A JSON "" is a value, unlike an empty CSV cell: present, as the field checks read it.
  if (text === undefined || text === '') view.opaque(slot);
  else view.set(slot, text, 0, text.length);
}

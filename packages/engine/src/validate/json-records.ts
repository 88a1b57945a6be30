// JSON: each record is walked along the schema's field tree (dotted names reach nested objects),
// with JSON typing, and every issue carries its JSON path.

import { createJsonReader, type JsonReaderOptions } from '../json/reader.ts';
import type { Issue } from '../model.ts';
import type { Failure } from './compile.ts';
import { describeJsonValue, jsonValueText } from './issue-value.ts';
import { buildJsonTree, isJsonObject, pathSegment, type JsonNode } from './json-fields.ts';
import { createQuickRecord } from './json-quick.ts';
import { messages } from './messages.ts';
import { REQUIRED, type RecordSource, type Run } from './run.ts';

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
    collector.rowIssue({ row, field: node.name, code: f.code, message: f.message, value, path });
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
      quickRecord: createQuickRecord(root, (row) => run.startRow(row)),

      record(value, row, path) {
        if (!run.startRow(row)) return;
        if (isJsonObject(value)) {
          checkObject(value, root, row, path);
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
  );
}

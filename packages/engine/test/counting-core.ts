// Test support: the byte core with its scan export counted, so that a test comparing results with
// and without the core cannot pass with the core silently off. A test file installs it with
//   vi.mock('./load.ts', async (original) =>
//     (await import('../../test/counting-core.ts')).countingLoad(original));
// and reads `taken` from the same module.
import type * as LoadModule from '../src/bytecore/load.ts';
import type { ByteCoreInstance } from '../src/bytecore/load.ts';

/** Scans made and records the core called clean, across the test file: CSV, then JSON. */
export const taken = { scans: 0, records: 0, jsonTakes: 0, jsonRecords: 0 };

export async function countingLoad(
  importOriginal: <T>() => Promise<T>,
): Promise<typeof LoadModule> {
  const real = await importOriginal<typeof LoadModule>();
  return {
    ...real,
    instantiateByteCore: (): ByteCoreInstance | undefined => {
      const instance = real.instantiateByteCore();
      if (instance === undefined) return undefined;
      const scan = instance.exports.scan as (...args: number[]) => number;
      const jsonRecords = instance.exports.jsonRecords as (...args: number[]) => number;
      const exports = {
        ...instance.exports,
        scan: (...args: number[]) => {
          const records = scan(...args);
          taken.scans++;
          taken.records += records;
          return records;
        },
        jsonRecords: (...args: number[]) => {
          const records = jsonRecords(...args);
          taken.jsonTakes++;
          taken.jsonRecords += records;
          return records;
        },
      };
      return { exports } as unknown as ByteCoreInstance;
    },
  };
}

import { describe, expect, it } from 'vitest';

import { byteCoreModule, instantiateByteCore } from './load.ts';

describe('the byte core', () => {
  it('compiles once, importing nothing and exporting its memory', () => {
    const module = byteCoreModule();
    expect(module).toBeInstanceOf(WebAssembly.Module);
    expect(byteCoreModule()).toBe(module);
    expect(WebAssembly.Module.imports(module!)).toEqual([]);
    expect(WebAssembly.Module.exports(module!)).toContainEqual({ name: 'memory', kind: 'memory' });
  });

  it('gives each instance a memory of its own', () => {
    const a = instantiateByteCore()!;
    const b = instantiateByteCore()!;
    expect(a).not.toBe(b);
    expect(a.exports.memory).toBeInstanceOf(WebAssembly.Memory);
    expect(a.exports.memory).not.toBe(b.exports.memory);
    new Uint8Array(a.exports.memory.buffer)[0] = 7;
    expect(new Uint8Array(b.exports.memory.buffer)[0]).toBe(0);
    // The engine grows the memory to fit its buffers; growing one leaves the other as it was.
    const pages = b.exports.memory.buffer.byteLength / 65536;
    expect(a.exports.memory.grow(1)).toBe(pages);
    expect(b.exports.memory.buffer.byteLength).toBe(pages * 65536);
  });
});

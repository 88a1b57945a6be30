// The web-standard globals the engine uses. They exist in browsers, workers and Node alike;
// declaring them here (instead of loading DOM or Node types) keeps the engine honest about
// what it may touch.
interface TextDecoderOptions {
  fatal?: boolean;
  ignoreBOM?: boolean;
}
interface TextDecodeOptions {
  stream?: boolean;
}
declare class TextDecoder {
  constructor(label?: string, options?: TextDecoderOptions);
  readonly encoding: string;
  decode(input?: Uint8Array, options?: TextDecodeOptions): string;
}
declare class TextEncoder {
  encode(input?: string): Uint8Array;
  encodeInto(input: string, destination: Uint8Array): { read: number; written: number };
}
declare class URL {
  constructor(url: string, base?: string);
  readonly protocol: string;
  readonly hostname: string;
  readonly host: string;
  readonly href: string;
}
/** Base64 to a binary string (one char a byte): the byte core ships as base64 (bytecore/load.ts). */
declare function atob(data: string): string;

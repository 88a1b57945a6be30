import type { FastifyRequest } from 'fastify';

// The text of a JSON body as it was sent. The body parser hands routes JSON.parse's value, in
// which a number beyond 2^53 has lost its last digits; a schema's bounds must be read exactly,
// so the schema routes read the text with the engine's own reader (docs/decisions/132).

const texts = new WeakMap<FastifyRequest, string>();

export function keepJsonText(request: FastifyRequest, text: string): void {
  texts.set(request, text);
}

/** The JSON body's text; undefined when the request had no JSON body. */
export function jsonTextOf(request: FastifyRequest): string | undefined {
  return texts.get(request);
}

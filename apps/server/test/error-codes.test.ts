import { API_ERROR_CODES, WORKSPACE_ERROR_CODES } from '@schemacheck/contracts';
import { ACCEPTED_EXTENSIONS } from '@schemacheck/engine';
import { describe, expect, it } from 'vitest';
import { ERRORS, WEB_ONLY_CODES } from '../src/errors.ts';

// The server's error table (src/errors.ts) is the one source of codes and statuses; the contracts'
// tables name the codes the web app's workspace reacts to and the codes of the public API. A code
// misspelt or dropped on either side would leave a dialog that never opens or a documented code
// the server never sends.

describe('the contracts’ error codes and the server’s table', () => {
  it('every code the workspace reacts to is one the server answers with', () => {
    for (const code of Object.values(WORKSPACE_ERROR_CODES)) {
      expect(Object.keys(ERRORS), code).toContain(code);
    }
  });

  it('the public API’s table has the server’s status for each of its codes, and no web-only code', () => {
    for (const [code, status] of API_ERROR_CODES) {
      expect(ERRORS[code as keyof typeof ERRORS]?.status, code).toBe(status);
      expect(WEB_ONLY_CODES.has(code as keyof typeof ERRORS), code).toBe(false);
    }
  });

  it('the refusal of a file type names every ending the engine opens, on the server and in the API docs', () => {
    const documented = API_ERROR_CODES.find(([code]) => code === 'unsupported_file')?.[2] ?? '';
    for (const ending of ACCEPTED_EXTENSIONS) {
      expect(ERRORS.unsupported_file.message, ending).toContain(ending);
      expect(documented, ending).toContain(ending);
    }
  });
});

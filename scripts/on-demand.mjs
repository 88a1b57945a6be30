// Tools that only an optional script uses (Lighthouse for `npm run lighthouse`) are not in the
// root package.json: `npm ci` would install them for every checkout and CI run (Lighthouse alone
// is 177 packages and 179 MiB; issue 27, docs/decisions/140). The script installs its tool here on
// first use, pinned, into a folder of its own under node_modules/.cache (ignored by git, removed
// with node_modules), and loads it from there.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Installs `name@version` (exact) once into node_modules/.cache/tools/<name>-<version> and returns
 * a function that imports a module from that install (`'lighthouse'`, `'chrome-launcher'`,
 * `'lighthouse/core/config/constants.js'`).
 */
export function installOnDemand(name, version) {
  const dir = path.join(ROOT, 'node_modules/.cache/tools', `${name}-${version}`);
  const installed = path.join(dir, 'node_modules', name, 'package.json');
  if (!existsSync(installed)) {
    console.log(`--- installing ${name}@${version} for this script (once) into ${dir}`);
    mkdirSync(dir, { recursive: true });
    // A package.json of its own, so that npm installs here and not into the workspace above.
    writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: `schemacheck-tool-${name}`, private: true }) + '\n',
    );
    execFileSync(
      'npm',
      [
        'install',
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        '--prefix',
        dir,
        `${name}@${version}`,
      ],
      { cwd: dir, stdio: 'inherit' },
    );
  }
  const require = createRequire(path.join(dir, 'package.json'));
  return (specifier) => import(pathToFileURL(require.resolve(specifier)).href);
}

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// What `npm ci` installs (issue 27, docs/decisions/140): no package that only an optional script
// uses (those install their tool on first use, scripts/on-demand.mjs), and a tree `npm ls` finds
// nothing wrong with.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Scripts a user runs by choice, never by install, start, check or test. */
const OPTIONAL_SCRIPTS = ['scripts/lighthouse.mjs', 'scripts/on-demand.mjs'];

const readJson = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));

interface Manifest {
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  workspaces?: string[];
}

/** The repository's files (committed or not, never ignored ones), relative to ROOT. */
function repositoryFiles(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((f) => /\.(c|m)?(t|j)sx?$|(^|\/)package\.json$/.test(f) && !f.endsWith('lock.json'));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Files that import `name` (or a module inside it), or run its command from an npm script. */
function usersOf(name: string, files: Map<string, string>): string[] {
  const specifier = new RegExp(
    `(?:\\bfrom\\s*|\\bimport\\s*\\(\\s*|\\brequire\\s*\\(\\s*|\\bimport\\s+)['"]${escape(name)}(?:/[^'"]*)?['"]`,
  );
  const command = new RegExp(`(^|[\\s&|;(])(npx\\s+)?${escape(name)}(\\s|$)`);
  return [...files].flatMap(([file, text]) => {
    if (specifier.test(text)) return [file];
    if (file.endsWith('package.json')) {
      const scripts = Object.values((JSON.parse(text) as Manifest).scripts ?? {});
      if (scripts.some((s) => command.test(s))) return [file];
    }
    return [];
  });
}

describe('the install', () => {
  // The root and every workspace (`packages/*`, `apps/*`).
  const manifests = ['package.json'].concat(
    ((readJson('package.json') as Manifest).workspaces ?? []).flatMap((pattern) => {
      const dir = pattern.replace(/\/\*$/, '');
      return readdirSync(path.join(ROOT, dir))
        .map((name) => `${dir}/${name}/package.json`)
        .filter((file) => existsSync(path.join(ROOT, file)));
    }),
  );

  it('has no dependency that only an optional script uses', () => {
    const files = new Map(
      repositoryFiles().map((f) => [f, readFileSync(path.join(ROOT, f), 'utf8')] as const),
    );
    const onlyOptional: string[] = [];
    for (const manifest of manifests) {
      const m = readJson(manifest) as Manifest;
      for (const name of Object.keys({ ...m.dependencies, ...m.devDependencies })) {
        const users = usersOf(name, files).filter((f) => f !== manifest);
        if (users.length > 0 && users.every((f) => OPTIONAL_SCRIPTS.includes(f)))
          onlyOptional.push(`${name} (${manifest}; used by ${users.join(', ')})`);
      }
    }
    expect(onlyOptional).toEqual([]);
  });

  it('locks no tool that a script installs on demand', () => {
    const lock = readJson('package-lock.json') as { packages: Record<string, unknown> };
    const onDemand = OPTIONAL_SCRIPTS.flatMap((f) =>
      [...readFileSync(path.join(ROOT, f), 'utf8').matchAll(/installOnDemand\('([^']+)'/g)].map(
        (m) => m[1]!,
      ),
    );
    expect(onDemand).toContain('lighthouse');
    const locked = Object.keys(lock.packages).filter((key) =>
      onDemand.some(
        (name) => key === `node_modules/${name}` || key.endsWith(`/node_modules/${name}`),
      ),
    );
    expect(locked).toEqual([]);
  });

  it('npm ls --all finds nothing invalid, missing or extraneous', () => {
    const ls = spawnSync('npm', ['ls', '--all'], { cwd: ROOT, encoding: 'utf8' });
    const problems = ls.stderr
      .split('\n')
      .filter((line) => /invalid|missing|extraneous|ELSPROBLEMS/.test(line));
    expect(problems).toEqual([]);
    expect(ls.status).toBe(0);
  });
});

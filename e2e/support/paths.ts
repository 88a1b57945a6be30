import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const WEB_DIR = path.join(REPO_ROOT, 'apps/web');
export const WEB_DIST = path.join(WEB_DIR, 'dist');
export const SERVER_ENTRY = path.join(REPO_ROOT, 'apps/server/src/server.ts');
export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'artifacts/screenshots');

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: this file runs from packages/kubelab/dist. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** services/<name>/dist/main.js, or undefined when that service is not built (or not written yet). */
export function serviceEntry(service: string): string | undefined {
  const p = resolve(REPO_ROOT, 'services', service, 'dist', 'main.js');
  return existsSync(p) ? p : undefined;
}

export const DEFAULT_STATE_DIR = '.kubelab/local';

/** The state dir as given (relative to the caller's cwd, as users expect). */
export function stateDirFrom(arg: string | undefined): string {
  return resolve(process.env.INIT_CWD ?? process.cwd(), arg ?? DEFAULT_STATE_DIR);
}

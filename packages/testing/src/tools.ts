import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The absolute path of an executable on PATH (plus /usr/sbin), or undefined. */
export function which(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const p = join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * Whether a test needing `tool` may run. Locally a missing tool skips the
 * test; under CI=true it is a failure, so CI can never pass by skipping.
 */
export function requireTool(tool: string): boolean {
  if (which(tool)) return true;
  if (process.env.CI === 'true') {
    throw new Error(`${tool} is required under CI=true but is not installed (see .ci/run)`);
  }
  return false;
}

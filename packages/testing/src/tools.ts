import { which } from '@kubelab/component-base';

export { which };

/** Whether this run is CI (CI=true): there a missing prerequisite fails instead of skipping. */
export function underCI(): boolean {
  return process.env.CI === 'true';
}

/**
 * Whether a test needing `what` may run, given whether it is `present`.
 * Locally a missing prerequisite skips the test; under CI=true it is a
 * failure, so CI can never pass by skipping.
 */
export function requirePrerequisite(what: string, present: boolean): boolean {
  if (present) return true;
  if (underCI()) throw new Error(`${what} is required under CI=true but is not available (see .ci/run)`);
  return false;
}

/** Whether a test needing the command `tool` on PATH may run (see requirePrerequisite). */
export function requireTool(tool: string): boolean {
  return requirePrerequisite(tool, which(tool) !== undefined);
}

/** Tests too slow for every local run (real-time seed labs): always under CI, locally with KUBELAB_SLOW_TESTS=1. */
export function slowTestsEnabled(): boolean {
  return underCI() || process.env.KUBELAB_SLOW_TESTS === '1';
}

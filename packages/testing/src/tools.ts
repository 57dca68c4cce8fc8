import { which } from '@kubelab/component-base';

export { which };

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

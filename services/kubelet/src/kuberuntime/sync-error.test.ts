import { describe, expect, it } from 'vitest';
import type { SyncReason } from '../status/generate.js';
import { podSyncErrorText } from './sync-error.js';

describe('podSyncErrorText (upstream PodSyncResult.Error)', () => {
  it.each<[string, Array<[string, SyncReason | null]>, string | undefined]>([
    ['nothing failed', [['app', null]], undefined],
    ['no containers', [], undefined],
    [
      'an image in pull back-off',
      [['nginx', { reason: 'ImagePullBackOff', message: 'Back-off pulling image "nginx:1.25"' }]],
      'failed to "StartContainer" for "nginx" with ImagePullBackOff: "Back-off pulling image \\"nginx:1.25\\""',
    ],
    [
      'a crash loop beside a started container',
      [
        ['sidecar', null],
        ['crash', { reason: 'CrashLoopBackOff', message: 'back-off 20s restarting failed container=crash pod=crash_default(u1)' }],
      ],
      'failed to "StartContainer" for "crash" with CrashLoopBackOff: "back-off 20s restarting failed container=crash pod=crash_default(u1)"',
    ],
    [
      "two failures: Go's aggregate",
      [
        ['a', { reason: 'CreateContainerConfigError', message: 'configmap "cfg" not found' }],
        ['b', { reason: 'ErrImageNeverPull', message: 'Container image "x:1" is not present with pull policy of Never' }],
      ],
      '[failed to "StartContainer" for "a" with CreateContainerConfigError: "configmap \\"cfg\\" not found", failed to "StartContainer" for "b" with ErrImageNeverPull: "Container image \\"x:1\\" is not present with pull policy of Never"]',
    ],
  ])('%s', (_name, reasons, want) => {
    expect(podSyncErrorText(new Map(reasons))).toBe(want);
  });
});

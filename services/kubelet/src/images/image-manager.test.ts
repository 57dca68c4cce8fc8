import type { Pod } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { Backoff } from '../backoff.js';
import { FakeClock } from '@kubelab/client/testing';
import { CriClientError } from '../kuberuntime/cri.js';
import { FakeRuntimeService } from '../testing/fake-runtime.js';
import { ImageManager, defaultPullPolicy, pullDurationText, shouldPullImage } from './image-manager.js';

const pod: Pod = { metadata: { name: 'p', namespace: 'default', uid: 'u1' }, spec: { containers: [] } };

function harness(present: boolean, pullFails = false) {
  const clock = new FakeClock();
  const events: string[] = [];
  const rt = new FakeRuntimeService(clock);
  const size = 2150000;
  if (present) rt.addImage('busybox:1.36', size);
  // Each pull takes 1.234 s of the fake clock.
  rt.onCall('PullImage', async (ref) => {
    await clock.advance(1234);
    if (pullFails) throw new CriClientError('NotFound', 'failed to pull and unpack image "docker.io/library/busybox:nope": not found');
    rt.addImage(ref, size);
  });
  const m = new ImageManager(rt, new Backoff(10_000, 300_000, clock), { event: (_r, type, reason, msg) => events.push(`${type} ${reason} ${msg}`) }, clock);
  return { m, events, clock, pulls: () => rt.rpcs().filter((rpc) => rpc === 'PullImage').length };
}

describe('image pulls', () => {
  it('defaults the pull policy from the tag as the API server does', () => {
    expect(defaultPullPolicy('busybox')).toBe('Always');
    expect(defaultPullPolicy('busybox:latest')).toBe('Always');
    expect(defaultPullPolicy('busybox:1.36')).toBe('IfNotPresent');
    expect(defaultPullPolicy('busybox@sha256:abc')).toBe('IfNotPresent');
    expect(shouldPullImage('IfNotPresent', true)).toBe(false);
    expect(shouldPullImage('Always', true)).toBe(true);
    expect(shouldPullImage('Never', false)).toBe(false);
  });

  it('records Pulling and Pulled with duration and size', async () => {
    const h = harness(false);
    await h.m.ensureImageExists(pod, { name: 'app', image: 'busybox:1.36' }, [], {} as never);
    expect(h.events).toEqual([
      'Normal Pulling Pulling image "busybox:1.36"',
      'Normal Pulled Successfully pulled image "busybox:1.36" in 1.234s (1.234s including waiting). Image size: 2150000 bytes.',
    ]);
    expect(pullDurationText(523)).toBe('523ms');
  });

  it('reports a present image for IfNotPresent and refuses Never when absent', async () => {
    const h = harness(true);
    await h.m.ensureImageExists(pod, { name: 'app', image: 'busybox:1.36' }, [], {} as never);
    expect(h.events).toEqual(['Normal Pulled Container image "busybox:1.36" already present on machine']);
    const n = harness(false);
    await expect(n.m.ensureImageExists(pod, { name: 'app', image: 'nginx:1.26', imagePullPolicy: 'Never' }, [], {} as never)).rejects.toMatchObject({
      reason: 'ErrImageNeverPull',
      message: 'Container image "nginx:1.26" is not present with pull policy of Never',
    });
  });

  it('backs off after a failed pull: ErrImagePull, then ImagePullBackOff until 10 s passed', async () => {
    const h = harness(false, true);
    const c = { name: 'app', image: 'busybox:nope' };
    await expect(h.m.ensureImageExists(pod, c, [], {} as never)).rejects.toMatchObject({ reason: 'ErrImagePull' });
    expect(h.events.at(-1)).toBe('Warning Failed Failed to pull image "busybox:nope": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/busybox:nope": not found');
    await expect(h.m.ensureImageExists(pod, c, [], {} as never)).rejects.toMatchObject({ reason: 'ImagePullBackOff', message: 'Back-off pulling image "busybox:nope"' });
    expect(h.pulls()).toBe(1);
    await h.clock.advance(10_000);
    await expect(h.m.ensureImageExists(pod, c, [], {} as never)).rejects.toMatchObject({ reason: 'ErrImagePull' });
    expect(h.pulls()).toBe(2);
  });
});

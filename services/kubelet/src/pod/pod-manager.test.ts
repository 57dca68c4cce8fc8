import type { Pod } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { ANNOTATION_CONFIG_HASH, ANNOTATION_CONFIG_MIRROR } from '../config/file.js';
import { mirrorIsCurrent } from './mirror-client.js';
import { PodManager, specChanged } from './pod-manager.js';

const pod = (name: string, uid: string, extra: Partial<Pod['metadata']> = {}): Pod => ({
  metadata: { name, namespace: 'default', uid, ...extra },
  spec: { containers: [{ name: 'app', image: 'busybox:1.36' }] },
});

describe('specChanged', () => {
  const base = pod('web', 'u1', { labels: { app: 'web' } });
  it.each<{ name: string; next: Pod; changed: boolean }>([
    { name: 'a status-only change is not a spec change', next: { ...base, status: { phase: 'Running' } }, changed: false },
    { name: 'a new resourceVersion is not a spec change', next: { ...base, metadata: { ...base.metadata, resourceVersion: '9' } }, changed: false },
    { name: 'a changed container is', next: { ...base, spec: { containers: [{ name: 'app', image: 'busybox:1.37' }] } }, changed: true },
    { name: 'a changed label is', next: { ...base, metadata: { ...base.metadata, labels: { app: 'other' } } }, changed: true },
    { name: 'a deletion is', next: { ...base, metadata: { ...base.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } }, changed: true },
  ])('$name', ({ next, changed }) => {
    expect(specChanged(base, next)).toBe(changed);
  });
});

describe('mirrorIsCurrent', () => {
  const staticPod = pod('web-node-1', 'hash1', { annotations: { [ANNOTATION_CONFIG_HASH]: 'hash1' } });
  it.each<{ name: string; mirror: Pod; current: boolean }>([
    { name: 'same config hash: current', mirror: pod('web-node-1', 'm1', { annotations: { [ANNOTATION_CONFIG_MIRROR]: 'hash1' } }), current: true },
    { name: 'another hash (the manifest changed): outdated', mirror: pod('web-node-1', 'm1', { annotations: { [ANNOTATION_CONFIG_MIRROR]: 'hash0' } }), current: false },
    { name: 'being deleted: outdated', mirror: pod('web-node-1', 'm1', { annotations: { [ANNOTATION_CONFIG_MIRROR]: 'hash1' }, deletionTimestamp: '2026-01-01T00:00:00Z' }), current: false },
  ])('$name', ({ mirror, current }) => {
    expect(mirrorIsCurrent(staticPod, mirror)).toBe(current);
  });
});

describe('PodManager', () => {
  it('matches mirror pods to static pods by namespace/name and forgets a mirror only by its own UID', () => {
    const m = new PodManager();
    m.set('s1', pod('web-node-1', 's1'), true);
    m.set('a1', pod('web-node-1', 'a1'), false);
    const mirror = pod('web-node-1', 'm1');
    m.setMirror(mirror);
    expect(m.staticPodsMirroredBy(mirror)).toEqual(['s1']);
    expect(m.mirrorOf(m.get('s1')!.pod)?.metadata.uid).toBe('m1');
    m.removeMirror(pod('web-node-1', 'm0'), 'm0');
    expect(m.mirrorOf(m.get('s1')!.pod)?.metadata.uid).toBe('m1');
    m.removeMirror(mirror, 'm1');
    expect(m.mirrorOf(m.get('s1')!.pod)).toBeUndefined();
  });
});

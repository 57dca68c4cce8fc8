import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigMap, Pod, Secret } from '@kubelab/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@kubelab/client/testing';
import type { Recorder } from '../events.js';
import { VolumeManager } from './manager.js';

const pod = (volumes: NonNullable<Pod['spec']>['volumes'], mounts: NonNullable<Pod['spec']>['containers'][0]['volumeMounts'] = [], uid = 'uid-1'): Pod => ({
  metadata: { name: 'web', namespace: 'default', uid, labels: { app: 'web' } },
  spec: { containers: [{ name: 'app', volumeMounts: mounts }], volumes },
});

describe('VolumeManager', () => {
  let root: string;
  let clock: FakeClock;
  let events: string[];
  let cms: Record<string, ConfigMap>;
  let secrets: Record<string, Secret>;
  let vm: VolumeManager;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'kubelab-vm-'));
    clock = new FakeClock();
    events = [];
    cms = {};
    secrets = {};
    const recorder: Recorder = { event: (ref, type, reason, message) => events.push(`${ref.name} ${type} ${reason}: ${message}`) };
    vm = new VolumeManager({
      rootDir: root,
      sources: { configMap: async (_ns, n) => cms[n], secret: async (_ns, n) => secrets[n] },
      tokens: {
        getServiceAccountToken: async (ns, name, r) => ({ ...r, status: { token: `token of ${ns}/${name} for pod ${r.spec.boundObjectRef?.uid}`, expirationTimestamp: '2026-01-01T01:00:00Z' } }),
      },
      recorder,
      clock,
      allocatable: () => ({ cpu: '2' }),
    });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const vol = (plugin: string, name: string, file: string) => join(root, 'pods', 'uid-1', 'volumes', plugin, name, file);

  it('writes each volume where upstream lays it out under --root-dir', async () => {
    cms.cfg = { metadata: { name: 'cfg' }, data: { greeting: 'hello' } };
    secrets.creds = { metadata: { name: 'creds' }, data: { password: Buffer.from('s3cr3t').toString('base64') } };
    const p = pod([
      { name: 'cfg', configMap: { name: 'cfg' } },
      { name: 'creds', secret: { secretName: 'creds', defaultMode: 0o400 } },
      { name: 'info', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
      { name: 'all', projected: { sources: [{ configMap: { name: 'cfg' } }, { serviceAccountToken: { path: 'token' } }] } },
      { name: 'scratch', emptyDir: {} },
    ]);
    expect(await vm.mountPod(p)).toEqual({ unmounted: [] });
    expect(readFileSync(vol('kubernetes.io~configmap', 'cfg', 'greeting'), 'utf8')).toBe('hello');
    expect(readFileSync(vol('kubernetes.io~secret', 'creds', 'password'), 'utf8')).toBe('s3cr3t');
    expect(statSync(vol('kubernetes.io~secret', 'creds', 'password')).mode & 0o777).toBe(0o400);
    expect(readFileSync(vol('kubernetes.io~downward-api', 'info', 'labels'), 'utf8')).toBe('app="web"');
    expect(readFileSync(vol('kubernetes.io~projected', 'all', 'greeting'), 'utf8')).toBe('hello');
    expect(readFileSync(vol('kubernetes.io~projected', 'all', 'token'), 'utf8')).toBe('token of default/default for pod uid-1');
    expect(statSync(join(root, 'pods', 'uid-1', 'volumes', 'kubernetes.io~empty-dir', 'scratch')).mode & 0o777).toBe(0o777);
    expect(events).toEqual([]);
  });

  it('reports a missing ConfigMap as FailedMount and retries with back-off until it appears', async () => {
    const p = pod([{ name: 'cfg', configMap: { name: 'app-config' } }]);
    const t0 = clock.now();
    expect(await vm.mountPod(p)).toEqual({ unmounted: ['cfg'], retryAt: t0 + 500 });
    expect(events).toEqual(['web Warning FailedMount: MountVolume.SetUp failed for volume "cfg" : configmap "app-config" not found']);
    // Inside the back-off window nothing is tried again.
    await clock.advance(100);
    expect(await vm.mountPod(p)).toEqual({ unmounted: ['cfg'], retryAt: t0 + 500 });
    expect(events).toHaveLength(1);
    // The next failure doubles the wait.
    await clock.advance(400);
    expect(await vm.mountPod(p)).toEqual({ unmounted: ['cfg'], retryAt: t0 + 500 + 1000 });
    expect(events).toHaveLength(2);
    cms['app-config'] = { metadata: { name: 'app-config' }, data: { greeting: 'hi' } };
    await clock.advance(1000);
    expect(await vm.mountPod(p)).toEqual({ unmounted: [] });
    expect(readFileSync(vol('kubernetes.io~configmap', 'cfg', 'greeting'), 'utf8')).toBe('hi');
  });

  it('rewrites the files of a set-up volume when its source changes; a later failure does not unmount it', async () => {
    cms.cfg = { metadata: { name: 'cfg' }, data: { greeting: 'hello' } };
    const p = pod([{ name: 'cfg', configMap: { name: 'cfg' } }]);
    await vm.mountPod(p);
    cms.cfg = { metadata: { name: 'cfg' }, data: { greeting: 'bonjour' } };
    await vm.mountPod(p);
    expect(readFileSync(vol('kubernetes.io~configmap', 'cfg', 'greeting'), 'utf8')).toBe('bonjour');
    delete cms.cfg;
    expect(await vm.mountPod(p)).toEqual({ unmounted: [], retryAt: clock.now() + 500 });
    expect(events).toEqual(['web Warning FailedMount: MountVolume.SetUp failed for volume "cfg" : configmap "cfg" not found']);
    expect(readFileSync(vol('kubernetes.io~configmap', 'cfg', 'greeting'), 'utf8')).toBe('bonjour');
  });

  it('reports item and hostPath type errors as SetUp failures; optional sources mount empty', async () => {
    cms.cfg = { metadata: { name: 'cfg' }, data: { greeting: 'hello' } };
    const missingDir = join(root, 'not-there');
    const p = pod([
      { name: 'cfg', configMap: { name: 'cfg', items: [{ key: 'nope', path: 'x' }] } },
      { name: 'host', hostPath: { path: missingDir, type: 'Directory' } },
      { name: 'opt', secret: { secretName: 'none', optional: true } },
    ]);
    expect((await vm.mountPod(p)).unmounted).toEqual(['cfg', 'host']);
    expect(events).toEqual([
      'web Warning FailedMount: MountVolume.SetUp failed for volume "cfg" : configmap references non-existent config key: nope',
      `web Warning FailedMount: MountVolume.SetUp failed for volume "host" : hostPath type check failed: ${missingDir} is not a directory`,
    ]);
  });

  it('gives containers CRI mounts: read-only for configMap volumes, subPath and subPathExpr joined', async () => {
    cms.cfg = { metadata: { name: 'cfg' }, data: { greeting: 'hello' } };
    const hostDir = join(root, 'host');
    mkdirSync(hostDir);
    const p = pod(
      [
        { name: 'cfg', configMap: { name: 'cfg' } },
        { name: 'scratch', emptyDir: {} },
        { name: 'host', hostPath: { path: hostDir, type: 'DirectoryOrCreate' } },
      ],
      [
        { name: 'cfg', mountPath: '/etc/config' },
        { name: 'cfg', mountPath: '/etc/greeting', subPath: 'greeting' },
        { name: 'scratch', mountPath: '/cache', subPathExpr: '$(POD_NAME)/cache' },
        { name: 'host', mountPath: '/host', readOnly: true },
      ],
    );
    await vm.mountPod(p);
    const mounts = vm.mountsFor(p, p.spec!.containers[0]!, new Map([['POD_NAME', 'web']]));
    const base = join(root, 'pods', 'uid-1', 'volumes');
    expect(mounts).toEqual([
      { containerPath: '/etc/config', hostPath: join(base, 'kubernetes.io~configmap', 'cfg'), readonly: true },
      { containerPath: '/etc/greeting', hostPath: join(base, 'kubernetes.io~configmap', 'cfg', 'greeting'), readonly: true },
      { containerPath: '/cache', hostPath: join(base, 'kubernetes.io~empty-dir', 'scratch', 'web', 'cache'), readonly: false },
      { containerPath: '/host', hostPath: hostDir, readonly: true },
    ]);
    // The subPath directory exists before the container starts, as upstream creates it.
    expect(statSync(join(base, 'kubernetes.io~empty-dir', 'scratch', 'web', 'cache')).isDirectory()).toBe(true);
  });

  it.each([
    [{ name: 'cfg', mountPath: '/x', subPath: '/etc' }, 'error SubPath `/etc` must not be an absolute path'],
    [{ name: 'cfg', mountPath: '/x', subPath: 'a/../../b' }, "unable to provision SubPath `a/../../b`: must not contain '..'"],
    [{ name: 'cfg', mountPath: '/x', subPathExpr: '$(NOPE)' }, 'missing value for NOPE'],
    [{ name: 'other', mountPath: '/x' }, 'cannot find volume "other" to mount into container "app"'],
  ])('refuses mount %j with the upstream text', async (m, message) => {
    cms.cfg = { metadata: { name: 'cfg' }, data: {} };
    const p = pod([{ name: 'cfg', configMap: { name: 'cfg' } }], [m]);
    await vm.mountPod(p);
    expect(() => vm.mountsFor(p, p.spec!.containers[0]!, new Map())).toThrow(message);
  });

  it('removes the pod directory on cleanup, and orphaned pod directories', async () => {
    const p = pod([{ name: 'scratch', emptyDir: {} }]);
    await vm.mountPod(p);
    await vm.mountPod(pod([{ name: 'scratch', emptyDir: {} }], [], 'uid-2'));
    expect(vm.cleanupOrphans((uid) => uid === 'uid-2')).toEqual(['uid-1']);
    expect(existsSync(join(root, 'pods', 'uid-1'))).toBe(false);
    expect(existsSync(join(root, 'pods', 'uid-2'))).toBe(true);
    vm.cleanupPod('uid-2');
    expect(existsSync(join(root, 'pods', 'uid-2'))).toBe(false);
    // Never a path outside the pods directory.
    vm.cleanupPod('..');
    expect(existsSync(root)).toBe(true);
  });
});

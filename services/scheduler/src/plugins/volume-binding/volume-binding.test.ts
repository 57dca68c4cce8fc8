import type { PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { CycleState } from '../../framework/cycle-state.js';
import type { Handle, VolumeListers } from '../../framework/handle.js';
import { Code } from '../../framework/status.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { nodeInfoOf } from '../../testing/node-info.js';
import { VolumeBinding } from './volume-binding.js';

const sc = (name: string, mode: 'Immediate' | 'WaitForFirstConsumer', provisioner = 'rancher.io/local-path'): StorageClass => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name },
  provisioner,
  volumeBindingMode: mode,
});
const claim = (name: string, cls: string, volumeName?: string): PersistentVolumeClaim => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '3' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: cls, ...(volumeName ? { volumeName } : {}) },
});
const onNode = (n: string) => ({ required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In' as const, values: [n] }] }] } });
const pv = (name: string, cls: string, node: string, claimRef?: PersistentVolumeClaim): PersistentVolume => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name },
  spec: {
    capacity: { storage: '1Gi' },
    accessModes: ['ReadWriteOnce'],
    storageClassName: cls,
    local: { path: `/mnt/${name}` },
    nodeAffinity: onNode(node),
    ...(claimRef ? { claimRef: { namespace: 'default', name: claimRef.metadata.name!, uid: claimRef.metadata.uid! } } : {}),
  },
  status: { phase: claimRef ? 'Bound' : 'Available' },
});
const podWith = (...claims: string[]): Pod => {
  const p = makePod('web');
  p.spec!.volumes = claims.map((c) => ({ name: c, persistentVolumeClaim: { claimName: c } }));
  return p;
};
const node = (name: string) => nodeInfoOf(makeNode(name, { labels: { 'kubernetes.io/hostname': name } }));

function plugin(claims: PersistentVolumeClaim[], volumes: PersistentVolume[], classes: StorageClass[], writes: string[] = []): VolumeBinding {
  const listers: VolumeListers = {
    claim: (ns, n) => claims.find((c) => c.metadata.namespace === ns && c.metadata.name === n),
    volumes: () => volumes,
    storageClass: (n) => classes.find((c) => c.metadata.name === n),
    waitForBound: async (keys) => void writes.push(`wait ${keys.join(',')}`),
  };
  const handle: Handle = {
    snapshot: { list: () => [], get: () => undefined },
    volumes: listers,
    actions: {
      updateClaim: async (c) => void writes.push(`claim ${c.metadata.name} selected-node=${c.metadata.annotations?.['volume.kubernetes.io/selected-node']}`),
      updateVolume: async (v) => void writes.push(`volume ${v.metadata.name} claimRef=${v.spec?.claimRef?.name}`),
    },
    runFilterPluginsWithNominatedPods: () => undefined,
  };
  return new VolumeBinding(handle);
}

/** PreFilter then Filter on each node: the status per node, or the PreFilter rejection. */
function run(pl: VolumeBinding, pod: Pod, nodes: string[]): string[] {
  const state = new CycleState();
  const pre = pl.preFilter(state, pod);
  if (pre?.status) return [`${Code[pre.status.code]}: ${pre.status.message()}`];
  return nodes.map((n) => {
    const s = pl.filter(state, pod, node(n));
    return `${n}: ${s ? `${Code[s.code]} ${s.message()}` : 'fits'}`;
  });
}

describe('VolumeBinding PreFilter and Filter', () => {
  const wffc = sc('standard', 'WaitForFirstConsumer');
  const local = sc('local', 'WaitForFirstConsumer', 'kubernetes.io/no-provisioner');
  it.each<[string, Pod, PersistentVolumeClaim[], PersistentVolume[], StorageClass[], string[]]>([
    ['no claims: skipped', podWith(), [], [], [], ['Skip: ']],
    ['a missing claim', podWith('data'), [], [], [], ['UnschedulableAndUnresolvable: persistentvolumeclaim "data" not found']],
    ['an unbound Immediate claim', podWith('data'), [claim('data', 'fast')], [], [sc('fast', 'Immediate')], ['UnschedulableAndUnresolvable: pod has unbound immediate PersistentVolumeClaims']],
    [
      'a bound local volume pins the pod to its node',
      podWith('data'),
      [claim('data', 'local', 'pv1')],
      [pv('pv1', 'local', 'node-2', claim('data', 'local'))],
      [local],
      ['node-1: UnschedulableAndUnresolvable node(s) had volume node affinity conflict', 'node-2: fits'],
    ],
    ['a WaitForFirstConsumer claim with a provisioner fits anywhere', podWith('data'), [claim('data', 'standard')], [], [wffc], ['node-1: fits', 'node-2: fits']],
    [
      'without a provisioner only where a free volume is',
      podWith('data'),
      [claim('data', 'local')],
      [pv('free', 'local', 'node-2')],
      [local],
      ["node-1: UnschedulableAndUnresolvable node(s) didn't find available persistent volumes to bind", 'node-2: fits'],
    ],
  ])('%s', (_, pod, claims, volumes, classes, want) => {
    expect(run(plugin(claims, volumes, classes), pod, ['node-1', 'node-2'])).toEqual(want);
  });
});

describe('VolumeBinding PreBind', () => {
  it('annotates claims to provision with the node, binds static volumes, then waits for the binding', async () => {
    const writes: string[] = [];
    const pl = plugin(
      [claim('data', 'standard'), claim('logs', 'local')],
      [pv('free', 'local', 'node-1')],
      [sc('standard', 'WaitForFirstConsumer'), sc('local', 'WaitForFirstConsumer', 'kubernetes.io/no-provisioner')],
      writes,
    );
    const pod = podWith('data', 'logs');
    const state = new CycleState();
    pl.preFilter(state, pod);
    expect(pl.filter(state, pod, node('node-1'))).toBeUndefined();
    pl.reserve(state, pod, 'node-1');
    expect(await pl.preBind(state, pod, 'node-1')).toBeUndefined();
    expect(writes).toEqual(['volume free claimRef=logs', 'claim data selected-node=node-1', 'wait default/logs,default/data']);
  });
});

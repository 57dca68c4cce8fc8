import { describe, expect, it } from 'vitest';
import { applyPatch } from './index.js';
import { StatusError } from '../meta/status.js';

const SMP = 'application/strategic-merge-patch+json';
const APPLY = 'application/apply-patch+yaml';

function pod(spec: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec, ...extra };
}

describe('strategic merge patch', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>, Record<string, unknown>]>([
    [
      'containers merge by name',
      pod({
        containers: [
          { name: 'web', image: 'nginx:1.25', ports: [{ containerPort: 80 }] },
          { name: 'side', image: 'busybox' },
        ],
      }),
      { spec: { containers: [{ name: 'web', image: 'nginx:1.26' }] } },
      pod({
        containers: [
          { name: 'web', image: 'nginx:1.26', ports: [{ containerPort: 80 }] },
          { name: 'side', image: 'busybox' },
        ],
      }),
    ],
    [
      'a new container is appended',
      pod({ containers: [{ name: 'a', image: 'x' }] }),
      { spec: { containers: [{ name: 'b', image: 'y' }] } },
      pod({
        containers: [
          { name: 'a', image: 'x' },
          { name: 'b', image: 'y' },
        ],
      }),
    ],
    [
      '$patch: delete removes a list item by key',
      pod({
        containers: [
          { name: 'a', image: 'x' },
          { name: 'b', image: 'y' },
        ],
      }),
      { spec: { containers: [{ name: 'a', $patch: 'delete' }] } },
      pod({ containers: [{ name: 'b', image: 'y' }] }),
    ],
    [
      '$patch: replace on a list replaces it',
      pod({
        containers: [
          { name: 'a', image: 'x' },
          { name: 'b', image: 'y' },
        ],
      }),
      { spec: { containers: [{ name: 'c', image: 'z' }, { $patch: 'replace' }] } },
      pod({ containers: [{ name: 'c', image: 'z' }] }),
    ],
    ['$patch: replace on a map replaces it', pod({ nodeSelector: { a: '1', b: '2' } }), { spec: { nodeSelector: { c: '3', $patch: 'replace' } } }, pod({ nodeSelector: { c: '3' } })],
    ['$patch: delete on a map removes it', pod({ nodeSelector: { a: '1' }, containers: [] }), { spec: { nodeSelector: { $patch: 'delete' } } }, pod({ containers: [] })],
    [
      'env merges by name, ports by containerPort, volumeMounts by mountPath',
      pod({ containers: [{ name: 'a', env: [{ name: 'X', value: '1' }], ports: [{ containerPort: 80, name: 'http' }], volumeMounts: [{ name: 'v', mountPath: '/d' }] }] }),
      {
        spec: {
          containers: [
            {
              name: 'a',
              env: [
                { name: 'Y', value: '2' },
                { name: 'X', value: '3' },
              ],
              ports: [{ containerPort: 443 }],
              volumeMounts: [{ mountPath: '/d', readOnly: true }],
            },
          ],
        },
      },
      pod({
        containers: [
          {
            name: 'a',
            env: [
              { name: 'X', value: '3' },
              { name: 'Y', value: '2' },
            ],
            ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443 }],
            volumeMounts: [{ name: 'v', mountPath: '/d', readOnly: true }],
          },
        ],
      }),
    ],
    [
      'tolerations have no merge key: replaced whole, as upstream',
      pod({ tolerations: [{ key: 'a', operator: 'Exists' }] }),
      { spec: { tolerations: [{ key: 'b', operator: 'Exists' }] } },
      pod({ tolerations: [{ key: 'b', operator: 'Exists' }] }),
    ],
    [
      'status conditions merge by type',
      pod(
        {},
        {
          status: {
            conditions: [
              { type: 'Ready', status: 'False' },
              { type: 'PodScheduled', status: 'True' },
            ],
          },
        },
      ),
      { status: { conditions: [{ type: 'Ready', status: 'True' }] } },
      pod(
        {},
        {
          status: {
            conditions: [
              { type: 'Ready', status: 'True' },
              { type: 'PodScheduled', status: 'True' },
            ],
          },
        },
      ),
    ],
    [
      'imagePullSecrets by name, volumes by name',
      pod({ imagePullSecrets: [{ name: 'r1' }], volumes: [{ name: 'v', emptyDir: {} }] }),
      { spec: { imagePullSecrets: [{ name: 'r2' }], volumes: [{ name: 'w', configMap: { name: 'c' } }] } },
      pod({
        imagePullSecrets: [{ name: 'r1' }, { name: 'r2' }],
        volumes: [
          { name: 'v', emptyDir: {} },
          { name: 'w', configMap: { name: 'c' } },
        ],
      }),
    ],
    [
      '$retainKeys drops the volume source not listed',
      pod({ volumes: [{ name: 'v', emptyDir: {} }] }),
      { spec: { volumes: [{ name: 'v', $retainKeys: ['hostPath', 'name'], hostPath: { path: '/x' } }] } },
      pod({ volumes: [{ name: 'v', hostPath: { path: '/x' } }] }),
    ],
    [
      '$setElementOrder orders the merged list',
      pod({ containers: [{ name: 'a' }, { name: 'b' }] }),
      { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'c' }, { name: 'a' }], containers: [{ name: 'c' }] } },
      pod({ containers: [{ name: 'b' }, { name: 'c' }, { name: 'a' }] }),
    ],
    [
      'finalizers merge as a set; $deleteFromPrimitiveList removes',
      { kind: 'Pod', metadata: { name: 'p', finalizers: ['a', 'b'] } },
      { metadata: { finalizers: ['c', 'a'], '$deleteFromPrimitiveList/finalizers': ['b'] } },
      { kind: 'Pod', metadata: { name: 'p', finalizers: ['a', 'c'] } },
    ],
    [
      'ownerReferences merge by uid',
      { kind: 'Pod', metadata: { name: 'p', ownerReferences: [{ uid: '1', name: 'rs-a', kind: 'ReplicaSet' }] } },
      {
        metadata: {
          ownerReferences: [
            { uid: '1', controller: true },
            { uid: '2', name: 'rs-b', kind: 'ReplicaSet' },
          ],
        },
      },
      {
        kind: 'Pod',
        metadata: {
          name: 'p',
          ownerReferences: [
            { uid: '1', name: 'rs-a', kind: 'ReplicaSet', controller: true },
            { uid: '2', name: 'rs-b', kind: 'ReplicaSet' },
          ],
        },
      },
    ],
    [
      'null deletes a field; new nested maps lose their directives',
      pod({ nodeName: 'n1', containers: [] }),
      { spec: { nodeName: null, nodeSelector: { a: '1', b: null } } },
      pod({ containers: [], nodeSelector: { a: '1' } }),
    ],
    [
      'node conditions merge by type; podCIDRs merge as a set',
      { kind: 'Node', metadata: { name: 'n' }, spec: { podCIDRs: ['10.244.0.0/24'] }, status: { conditions: [{ type: 'Ready', status: 'True' }] } },
      { spec: { podCIDRs: ['10.244.0.0/24'] }, status: { conditions: [{ type: 'MemoryPressure', status: 'False' }] } },
      {
        kind: 'Node',
        metadata: { name: 'n' },
        spec: { podCIDRs: ['10.244.0.0/24'] },
        status: {
          conditions: [
            { type: 'Ready', status: 'True' },
            { type: 'MemoryPressure', status: 'False' },
          ],
        },
      },
    ],
    [
      'deployment template containers merge; strategy honours $retainKeys',
      {
        kind: 'Deployment',
        metadata: { name: 'd' },
        spec: {
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } },
          template: { spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } },
        },
      },
      { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' }, template: { spec: { containers: [{ name: 'web', image: 'nginx:1.26' }] } } } },
      {
        kind: 'Deployment',
        metadata: { name: 'd' },
        spec: { strategy: { type: 'Recreate' }, template: { spec: { containers: [{ name: 'web', image: 'nginx:1.26' }] } } },
      },
    ],
    [
      'service ports merge by port',
      { kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80, targetPort: 8080 }] } },
      { spec: { ports: [{ port: 80, targetPort: 9090 }, { port: 443 }] } },
      { kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80, targetPort: 9090 }, { port: 443 }] } },
    ],
  ])('%s', (_name, orig, patch, want) => {
    expect(applyPatch(SMP, orig, patch)).toEqual(want);
  });

  it('the patch kubectl apply sends for a changed image and a new label', () => {
    const live = pod(
      { containers: [{ name: 'web', image: 'nginx:1.25', imagePullPolicy: 'IfNotPresent' }] },
      {
        metadata: { name: 'web', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' } },
      },
    );
    const patch = {
      metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"new":1}' }, labels: { tier: 'front' } },
      spec: { '$setElementOrder/containers': [{ name: 'web' }], containers: [{ image: 'nginx:1.26', name: 'web' }] },
    };
    expect(applyPatch(SMP, live, patch)).toEqual(
      pod(
        { containers: [{ name: 'web', image: 'nginx:1.26', imagePullPolicy: 'IfNotPresent' }] },
        {
          metadata: { name: 'web', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"new":1}' }, labels: { tier: 'front' } },
        },
      ),
    );
  });

  it.each([
    ['missing merge key', { spec: { containers: [{ image: 'x' }] } }, 400, 'map: {"image":"x"} does not contain declared merge key: name'],
    ['unknown $patch', { spec: { $patch: 'frob' } }, 400, 'Unknown patch type: frob in map: {"$patch":"frob"}'],
    ['field not in $retainKeys', { spec: { $retainKeys: ['a'], b: 1 } }, 422, 'The patch has b which is not listed in $retainKeys'],
  ])('rejects: %s', (_name, patch, code, message) => {
    try {
      applyPatch(SMP, pod({ containers: [] }), patch);
      expect.fail('patch applied');
    } catch (e) {
      expect(StatusError.isInstance(e)).toBe(true);
      expect((e as StatusError).status).toMatchObject({ code, message });
    }
  });
});

describe('apply patch (server-side apply, simplified)', () => {
  it('merges the applied configuration with the strategic keys', () => {
    const live = pod({ containers: [{ name: 'web', image: 'nginx:1.25', terminationMessagePath: '/dev/termination-log' }] });
    const applied = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', labels: { a: 'b' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.26' }] } };
    expect(applyPatch(APPLY, live, JSON.stringify(applied))).toEqual(
      pod({ containers: [{ name: 'web', image: 'nginx:1.26', terminationMessagePath: '/dev/termination-log' }] }, { metadata: { name: 'web', labels: { a: 'b' } } }),
    );
  });

  it('unknown patch types are 415', () => {
    try {
      applyPatch('text/plain', {}, {});
      expect.fail('applied');
    } catch (e) {
      expect((e as StatusError).status.code).toBe(415);
    }
  });
});

// pods/ephemeralcontainers updates (upstream ValidatePodEphemeralContainersUpdate
// and validateEphemeralContainers), as kubectl prints the errors.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../index.js';
import { setDefaults, validateObject } from '../index.js';
import { fieldErrorMessage } from '../meta/status.js';

type Ephemeral = NonNullable<NonNullable<Pod['spec']>['ephemeralContainers']>[number];

function pod(ephemeral: Ephemeral[] = [], mut: (p: Pod) => void = () => {}): Pod {
  const p: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', resourceVersion: '5' },
    spec: { containers: [{ name: 'web', image: 'nginx:1.25' }], initContainers: [{ name: 'init', image: 'busybox' }], ephemeralContainers: ephemeral },
  };
  mut(p);
  setDefaults(p);
  return p;
}

const debugger1: Ephemeral = { name: 'debugger-abc', image: 'busybox', stdin: true, tty: true };
/** The errors of updating `old` to `next` through pods/ephemeralcontainers. */
const update = (next: Pod, old: Pod): string[] => validateObject(next, old, 'ephemeralcontainers').map((e) => `${e.field}: ${fieldErrorMessage(e)}`);

describe('pods/ephemeralcontainers update', () => {
  it('adding a debugger (kubectl debug) is valid, and so is one that targets a container', () => {
    expect(update(pod([debugger1]), pod())).toEqual([]);
    expect(update(pod([debugger1, { name: 'two', image: 'busybox', targetContainerName: 'web' }]), pod([debugger1]))).toEqual([]);
  });

  it.each<[string, Partial<Ephemeral>, string[]]>([
    ['ports', { ports: [{ containerPort: 80 }] }, ['spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container']],
    ['resources', { resources: { limits: { cpu: '1' } } }, ['spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container']],
    ['a liveness probe', { livenessProbe: { exec: { command: ['true'] } } }, ['spec.ephemeralContainers[0].livenessProbe: Forbidden: cannot be set for an Ephemeral Container']],
    ['a readiness probe', { readinessProbe: { exec: { command: ['true'] } } }, ['spec.ephemeralContainers[0].readinessProbe: Forbidden: cannot be set for an Ephemeral Container']],
    ['a startup probe', { startupProbe: { exec: { command: ['true'] } } }, ['spec.ephemeralContainers[0].startupProbe: Forbidden: cannot be set for an Ephemeral Container']],
    ['a lifecycle hook', { lifecycle: { preStop: { exec: { command: ['true'] } } } }, ['spec.ephemeralContainers[0].lifecycle: Forbidden: cannot be set for an Ephemeral Container']],
    ['the name of a container', { name: 'web' }, ['spec.ephemeralContainers[0].name: Duplicate value: "web"']],
    ['the name of an init container', { name: 'init' }, ['spec.ephemeralContainers[0].name: Duplicate value: "init"']],
    ['a target that does not exist', { targetContainerName: 'nope' }, ['spec.ephemeralContainers[0].targetContainerName: Not found: "nope"']],
    ['no image', { image: '' }, ['spec.ephemeralContainers[0].image: Required value']],
    [
      'a volume subPath',
      { volumeMounts: [{ name: 'data', mountPath: '/d', subPath: 'x' }] },
      ['spec.ephemeralContainers[0].volumeMounts[0].subPath: Forbidden: cannot be set for an Ephemeral Container'],
    ],
  ])('refuses %s', (_name, change, want) => {
    const next = pod([{ ...debugger1, ...change }], (p) => (p.spec!.volumes = [{ name: 'data', emptyDir: {} }]));
    const old = pod([], (p) => (p.spec!.volumes = [{ name: 'data', emptyDir: {} }]));
    expect(update(next, old)).toEqual(want);
  });

  it('an existing ephemeral container may not be removed', () => {
    expect(update(pod([]), pod([debugger1]))).toEqual(['spec.ephemeralContainers: Forbidden: existing ephemeral containers "debugger-abc" may not be removed\n']);
  });

  it('an existing ephemeral container may not be changed; the message shows what changed', () => {
    const errs = update(pod([{ ...debugger1, image: 'alpine' }]), pod([debugger1]));
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatch(/^spec\.ephemeralContainers: Forbidden: existing ephemeral containers "debugger-abc" may not be changed\n/);
    expect(errs[0]).toContain('alpine');
  });

  it('static pods take no ephemeral containers', () => {
    const mirror = (p: Pod) => (p.metadata.annotations = { 'kubernetes.io/config.mirror': 'abc' });
    expect(update(pod([debugger1], mirror), pod([], mirror))).toEqual([': Forbidden: static pods do not support ephemeral containers']);
  });

  it('a plain pod update may not add one (only the subresource may)', () => {
    const errs = validateObject(pod([debugger1]), pod()).map((e) => `${e.field}: ${fieldErrorMessage(e)}`);
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatch(/^spec: Forbidden: pod updates may not change fields other than/);
  });
});

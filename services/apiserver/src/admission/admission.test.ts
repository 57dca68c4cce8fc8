import { describe, expect, it } from 'vitest';
import { parseCidr, pickFreeOffset, offsetInRange } from './ipalloc.js';
import { withDefaultTolerations } from './default-toleration-seconds.js';
import { formatIpv4, lookupResource, type KubeObject, type Pod, type PodSpec, type ServiceAccount } from '@kubelab/api';
import { mirrorPodViolation, serviceAccount, type ServiceAccountAdmissionOptions } from './service-account.js';
import { ServiceAllocator } from './service-allocation.js';
import type { AdmissionAttributes } from './types.js';

describe('service IP range', () => {
  it('parses the default range and keeps network/broadcast out', () => {
    const c = parseCidr('10.96.0.0/12');
    expect(c).toMatchObject({ size: 1 << 20, text: '10.96.0.0/12' });
    expect(formatIpv4(c.base + 1)).toBe('10.96.0.1');
    expect(offsetInRange(c, '10.96.0.0')).toBeUndefined();
    expect(offsetInRange(c, '10.111.255.255')).toBeUndefined();
    expect(offsetInRange(c, '10.112.0.1')).toBeUndefined();
    expect(offsetInRange(c, '10.96.0.10')).toBe(10);
  });

  it('picks from the upper band first and finds the last free address', () => {
    const c = parseCidr('10.0.0.0/28'); // 14 usable, low band 16 → one band
    const used = new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14]);
    expect(
      pickFreeOffset(
        c,
        (o) => used.has(o),
        () => 0,
      ),
    ).toBe(13);
    used.add(13);
    expect(pickFreeOffset(c, (o) => used.has(o))).toBeUndefined();
    const big = parseCidr('10.96.0.0/12');
    expect(
      pickFreeOffset(
        big,
        () => false,
        () => 0,
      ),
    ).toBe(257);
  });

  it('refuses a malformed range with a hint', () => {
    expect(() => parseCidr('10.96.0.0')).toThrow('invalid service CIDR "10.96.0.0": want an IPv4 prefix between /8 and /30, e.g. 10.96.0.0/12');
  });
});

describe('DefaultTolerationSeconds', () => {
  const notReady = { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
  const unreachable = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
  it.each([
    { name: 'none', given: undefined, want: [notReady, unreachable] },
    { name: 'tolerate-everything', given: [{ operator: 'Exists' }], want: undefined },
    { name: 'own not-ready kept', given: [{ ...notReady, tolerationSeconds: 5 }], want: [{ ...notReady, tolerationSeconds: 5 }, unreachable] },
    {
      name: 'NoSchedule does not count',
      given: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }],
      want: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }, notReady, unreachable],
    },
  ])('$name', ({ given, want }) => {
    const out = withDefaultTolerations(given, 300, 300);
    expect(out === given ? undefined : out).toEqual(want);
  });
});

describe('ServiceAccount', () => {
  const pods = lookupResource('', 'v1', 'pods')!;
  const admit = (pod: Pod, operation: 'CREATE' | 'UPDATE' = 'CREATE', opts: ServiceAccountAdmissionOptions = {}): Pod => {
    const a: AdmissionAttributes = {
      operation,
      info: pods,
      namespace: 'default',
      name: pod.metadata.name ?? '',
      object: pod,
      ctx: {},
      dryRun: false,
      onRollback: () => {},
      onCommit: () => {},
    };
    void serviceAccount(opts).admit?.(a);
    return pod;
  };
  const pod = (spec: Partial<PodSpec> = {}, annotations?: Record<string, string>): Pod => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', ...(annotations ? { annotations } : {}) },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
  });
  const mirror = { 'kubernetes.io/config.mirror': 'e03fdc36b374c000f262db3024802e4f' };

  it('a pod without one runs as default, written to both fields', () => {
    expect(admit(pod()).spec).toMatchObject({ serviceAccountName: 'default', serviceAccount: 'default' });
    expect(admit(pod({ serviceAccountName: 'builder' })).spec).toMatchObject({ serviceAccountName: 'builder', serviceAccount: 'builder' });
  });

  it('only creates are mutated', () => {
    expect(admit(pod(), 'UPDATE').spec?.serviceAccountName).toBeUndefined();
  });

  it('adds no kube-api-access volume when the apiserver cannot issue tokens (no signing key)', () => {
    const p = admit(pod());
    expect(p.spec?.volumes).toBeUndefined();
    expect(p.spec?.containers[0]?.volumeMounts).toBeUndefined();
  });

  const defaultSA: ServiceAccount = { metadata: { name: 'default', namespace: 'default' } };
  const tokens = (sa: ServiceAccount = defaultSA): ServiceAccountAdmissionOptions => ({
    mountServiceAccountToken: true,
    suffix: () => 'x7k2q',
    serviceAccount: (_ns, name) => (sa.metadata.name === name ? sa : undefined),
  });
  const mount = { name: 'kube-api-access-x7k2q', readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };

  it('adds the kube-api-access projected volume, mounted read-only in every container and init container', () => {
    const p = admit(pod({ initContainers: [{ name: 'init', image: 'busybox' }], volumes: [{ name: 'data', emptyDir: {} }] }), 'CREATE', tokens());
    expect(p.spec?.volumes).toEqual([
      { name: 'data', emptyDir: {} },
      {
        name: 'kube-api-access-x7k2q',
        projected: {
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
          ],
          defaultMode: 420,
        },
      },
    ]);
    expect(p.spec?.containers[0]?.volumeMounts).toEqual([mount]);
    expect(p.spec?.initContainers?.[0]?.volumeMounts).toEqual([mount]);
  });

  it.each<{ name: string; spec: Partial<PodSpec>; sa?: ServiceAccount }>([
    { name: 'the pod sets automountServiceAccountToken false', spec: { automountServiceAccountToken: false } },
    { name: 'its ServiceAccount sets automountServiceAccountToken false', spec: {}, sa: { metadata: { name: 'default', namespace: 'default' }, automountServiceAccountToken: false } },
    {
      name: 'every container already mounts something at the token path',
      spec: { containers: [{ name: 'c', image: 'x', volumeMounts: [{ name: 'own', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }] }] },
    },
  ])('adds no token volume when $name', ({ spec, sa }) => {
    const p = admit(pod(spec), 'CREATE', tokens(sa));
    expect(p.spec?.volumes).toBeUndefined();
    expect((p.spec?.containers[0]?.volumeMounts ?? []).filter((m) => m.name.startsWith('kube-api-access'))).toEqual([]);
  });

  it("the pod's automountServiceAccountToken true wins over its ServiceAccount's false", () => {
    const p = admit(pod({ automountServiceAccountToken: true }), 'CREATE', tokens({ metadata: { name: 'default', namespace: 'default' }, automountServiceAccountToken: false }));
    expect(p.spec?.volumes?.map((v) => v.name)).toEqual(['kube-api-access-x7k2q']);
  });

  // The pod's ServiceAccount as found on each lookup (undefined: missing), the lookups made and what admission says.
  it.each<{ name: string; sa: string; found: Array<'hit' | 'promise' | undefined>; lookups: number; error?: string }>([
    { name: 'a cache hit answers at once', sa: 'default', found: ['hit'], lookups: 1 },
    { name: 'a miss found by the consistent read', sa: 'builder', found: ['promise'], lookups: 1 },
    {
      name: 'a missing ServiceAccount is looked up once',
      sa: 'builder',
      found: [undefined, 'hit'],
      lookups: 1,
      error: 'error looking up service account default/builder: serviceaccount "builder" not found',
    },
    { name: 'default is looked up again until its controller has made it', sa: 'default', found: [undefined, undefined, 'hit'], lookups: 3 },
    { name: 'default missing after ten lookups', sa: 'default', found: [], lookups: 10, error: 'error looking up service account default/default: serviceaccount "default" not found' },
  ])('$name', async ({ sa, found, lookups, error }) => {
    const account: ServiceAccount = { metadata: { name: sa, namespace: 'default' } };
    let n = 0;
    const sleeps: number[] = [];
    const opts: ServiceAccountAdmissionOptions = {
      mountServiceAccountToken: true,
      suffix: () => 'x7k2q',
      sleep: async (ms) => void sleeps.push(ms),
      serviceAccount: () => {
        const f = found[n++];
        return f === 'hit' ? account : f === 'promise' ? Promise.resolve(account) : n === 1 ? undefined : Promise.resolve(undefined);
      },
    };
    const p = pod({ serviceAccountName: sa });
    const a: AdmissionAttributes = { operation: 'CREATE', info: pods, namespace: 'default', name: 'p', object: p, ctx: {}, dryRun: false, onRollback: () => {}, onCommit: () => {} };
    const result = serviceAccount(opts).admit!(a);
    if (found[0] === 'hit') expect(result).toBeUndefined();
    if (error) await expect(result).rejects.toThrow(`pods "p" is forbidden: ${error}`);
    else {
      await result;
      expect(p.spec?.volumes?.map((v) => v.name)).toEqual(['kube-api-access-x7k2q']);
    }
    expect(n).toBe(lookups);
    expect(sleeps).toHaveLength(lookups - 1);
    expect(sleeps.every((ms) => ms >= 100 && ms < 200)).toBe(true);
  });

  it('mirror pods get no token volume', () => {
    expect(admit(pod({}, mirror), 'CREATE', tokens()).spec?.volumes).toBeUndefined();
  });

  it('mirror pods keep the spec the kubelet wrote', () => {
    const p = admit(pod({}, mirror));
    expect(p.spec?.serviceAccountName).toBeUndefined();
    expect(p.spec?.serviceAccount).toBeUndefined();
  });

  it.each([
    { name: 'service account', spec: { serviceAccountName: 'default' }, why: 'a mirror pod may not reference service accounts' },
    { name: 'secret volume', spec: { volumes: [{ name: 's', secret: { secretName: 's' } }] }, why: 'a mirror pod may not reference secrets' },
    {
      name: 'secret env',
      spec: { containers: [{ name: 'c', image: 'x', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }] }] },
      why: 'a mirror pod may not reference secrets',
    },
    { name: 'pull secret', spec: { imagePullSecrets: [{ name: 'reg' }] }, why: 'a mirror pod may not reference secrets' },
    {
      name: 'token projection',
      spec: { volumes: [{ name: 't', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }] },
      why: 'a mirror pod may not use ServiceAccountToken volume projections',
    },
  ])('a mirror pod referencing a $name is forbidden', ({ spec, why }) => {
    expect(mirrorPodViolation(pod(spec as Partial<PodSpec>).spec!)).toBe(why);
    expect(() => admit(pod(spec as Partial<PodSpec>, mirror))).toThrow(`pods "p" is forbidden: ${why}`);
  });
});

describe('ServiceIPAllocation', () => {
  const services = lookupResource('', 'v1', 'services')!;
  const attrs = (name: string, clusterIP: string): AdmissionAttributes => ({
    operation: 'CREATE',
    info: services,
    namespace: 'default',
    name,
    object: { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec: { clusterIP, ports: [{ port: 80 }] } } as KubeObject,
    ctx: {},
    dryRun: false,
    onRollback: () => {},
    onCommit: () => {},
  });

  it('reuses the IP of a Service this apiserver just deleted once the cache shows the delete, instead of calling it taken', async () => {
    // The cache still holds the deleted Service; its delete is acknowledged but not applied yet.
    let stored: KubeObject[] = [{ metadata: { name: 'old', namespace: 'default' }, spec: { clusterIP: '10.96.0.50', clusterIPs: ['10.96.0.50'] } } as KubeObject];
    let applied: (() => void) | undefined;
    const pending = new Promise<void>((r) => (applied = r));
    let behind = true;
    const alloc = new ServiceAllocator({
      serviceRange: parseCidr('10.96.0.0/12'),
      nodePortRange: { base: 30000, size: 2768, text: '30000-32767' },
      services: () => stored,
      waitForRev: () => Promise.resolve(),
      ownWritesApplied: () => (behind ? pending : undefined),
    });
    const a = attrs('reuse', '10.96.0.50');
    const done = alloc.admit(a);
    expect(done).toBeInstanceOf(Promise);
    stored = [];
    behind = false;
    applied!();
    await done;
    expect((a.object as KubeObject & { spec: { clusterIPs: string[] } }).spec.clusterIPs).toEqual(['10.96.0.50']);
    // Nothing pending: the same check runs synchronously and refuses a taken IP.
    stored = [{ metadata: { name: 'x' }, spec: { clusterIPs: ['10.96.0.60'] } } as KubeObject];
    expect(() => alloc.admit(attrs('dup', '10.96.0.60'))).toThrow('failed to allocate IP 10.96.0.60: provided IP is already allocated');
  });
});

describe('ServiceIPAllocation: node ports of LoadBalancers', () => {
  const services = lookupResource('', 'v1', 'services')!;
  type Spec = { type?: string; externalTrafficPolicy?: string; healthCheckNodePort?: number; allocateLoadBalancerNodePorts?: boolean; ports?: { port: number; nodePort?: number }[] };
  const svc = (spec: Spec) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'lb', namespace: 'default' }, spec: { clusterIP: '10.96.0.9', ...spec } }) as KubeObject & { spec: Spec };
  const attrs = (object: KubeObject, oldObject?: KubeObject): AdmissionAttributes => ({
    operation: oldObject ? 'UPDATE' : 'CREATE',
    info: services,
    namespace: 'default',
    name: 'lb',
    object,
    oldObject,
    ctx: {},
    dryRun: false,
    onRollback: () => {},
    onCommit: () => {},
  });
  const allocator = (stored: KubeObject[] = []) =>
    new ServiceAllocator({
      serviceRange: parseCidr('10.96.0.0/12'),
      nodePortRange: { base: 30000, size: 2768, text: '30000-32767' },
      services: () => stored,
      waitForRev: () => Promise.resolve(),
      ownWritesApplied: () => undefined,
    });

  it('a LoadBalancer with externalTrafficPolicy Local gets a healthCheckNodePort from the node port range, distinct from its node ports', () => {
    const s = svc({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ port: 80 }] });
    allocator([svc({ type: 'NodePort', ports: [{ port: 80, nodePort: 30000 }] })]).admit(attrs(s));
    const hc = s.spec.healthCheckNodePort!;
    expect(hc).toBeGreaterThanOrEqual(30000);
    expect(hc).toBeLessThan(32768);
    expect([30000, s.spec.ports![0]!.nodePort]).not.toContain(hc);
  });

  it('Cluster policy gets no health check port; a requested one that is taken is refused with upstream text', () => {
    const cluster = svc({ type: 'LoadBalancer', externalTrafficPolicy: 'Cluster', ports: [{ port: 80 }] });
    allocator().admit(attrs(cluster));
    expect(cluster.spec.healthCheckNodePort).toBeUndefined();
    const taken = svc({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 31000, ports: [{ port: 80 }] });
    expect(() => allocator([svc({ type: 'NodePort', ports: [{ port: 80, nodePort: 31000 }] })]).admit(attrs(taken))).toThrow(
      'spec.healthCheckNodePort: Invalid value: 31000: provided port is already allocated',
    );
  });

  it('an update keeps the health check port, and switching to Cluster policy releases it', () => {
    const old = svc({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 31500, ports: [{ port: 80, nodePort: 30100 }] });
    const keep = svc({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ port: 80 }] });
    allocator([old]).admit(attrs(keep, old));
    expect(keep.spec.healthCheckNodePort).toBe(31500);
    expect(keep.spec.ports![0]!.nodePort).toBe(30100);
    const cluster = svc({ type: 'LoadBalancer', externalTrafficPolicy: 'Cluster', healthCheckNodePort: 31500, ports: [{ port: 80, nodePort: 30100 }] });
    allocator([old]).admit(attrs(cluster, old));
    expect(cluster.spec.healthCheckNodePort).toBeUndefined();
  });

  it('allocateLoadBalancerNodePorts false allocates no node port but keeps one the user asked for', () => {
    const s = svc({ type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: [{ port: 80 }, { port: 443, nodePort: 30443 }] });
    allocator().admit(attrs(s));
    expect(s.spec.ports).toEqual([{ port: 80 }, { port: 443, nodePort: 30443 }]);
  });
});

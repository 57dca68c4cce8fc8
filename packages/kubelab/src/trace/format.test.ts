import { describe, expect, it } from 'vitest';
import { formatApiLine, formatProxyLine, formatSchedLine, formatDurationMs, formatLine, hiddenLine, HiddenTally, requestSummary, shellWord, toJson } from './format.js';
import type { ApiWriteRecord } from '@kubelab/proto/api-record';
import type { ProxySyncRecord } from '@kubelab/proto/proxy-record';
import type { SchedulingDecisionRecord } from '@kubelab/proto/sched-record';
import type { CriRecord } from './record.js';

const T = '2025-01-02T10:41:02.118Z';
const rec = (method: string, extra: Partial<CriRecord> = {}): CriRecord => ({ time: T, node: 'node-1', method, request: {}, durationMs: 1.25, code: 'OK', ...extra });
const probedemo = { podName: 'probedemo', podNamespace: 'default', podSandboxId: 'sb1' };
const liveness = { ...probedemo, containerId: 'c1', containerName: 'liveness' };

describe('formatLine (no colour, UTC)', () => {
  const A = '10:41:02.118  kubelet(node-1) → containerd(node-1)';
  const cases: [string, CriRecord, string][] = [
    [
      'RunPodSandbox: the pod',
      rec('RunPodSandbox', { ...probedemo, request: { pod: 'default/probedemo', uid: 'u1', attempt: 0 }, durationMs: 12.4 }),
      `${A}  RunPodSandbox     default/probedemo            12ms  OK`,
    ],
    [
      'a restarted sandbox shows its attempt',
      rec('RunPodSandbox', { ...probedemo, request: { pod: 'default/probedemo', attempt: 1 } }),
      `${A}  RunPodSandbox     default/probedemo         attempt=1    1.3ms  OK`,
    ],
    [
      'PullImage: the image, no pod known',
      rec('PullImage', { request: { image: 'busybox:1.36', auth: 'none' }, durationMs: 0.4 }),
      `${A}  PullImage         -                         image=busybox:1.36    0.4ms  OK`,
    ],
    [
      'PullImage with credentials says so (never what they are)',
      rec('PullImage', { request: { image: 'registry.kubelab.io/private/app:1.0', auth: 'present' } }),
      `${A}  PullImage         -                         image=registry.kubelab.io/private/app:1.0 auth=present    1.3ms  OK`,
    ],
    [
      'CreateContainer: image and command, shell-quoted',
      rec('CreateContainer', { ...liveness, request: { name: 'liveness', attempt: 0, image: 'busybox:1.36', command: ['sh', '-c', 'touch /tmp/healthy; sleep 30'] }, durationMs: 2.08 }),
      `${A}  CreateContainer   default/probedemo liveness  image=busybox:1.36 command=sh -c 'touch /tmp/healthy; sleep 30'    2.1ms  OK`,
    ],
    [
      'CreateContainer after a restart: attempt',
      rec('CreateContainer', { ...liveness, request: { image: 'busybox:1.36', command: ['sleep'], args: ['3600'], attempt: 1 } }),
      `${A}  CreateContainer   default/probedemo liveness  image=busybox:1.36 command=sleep 3600 attempt=1    1.3ms  OK`,
    ],
    ['StartContainer: just the container', rec('StartContainer', liveness), `${A}  StartContainer    default/probedemo liveness    1.3ms  OK`],
    [
      'ExecSync: the probe command',
      rec('ExecSync', { ...liveness, request: { cmd: ['cat', '/tmp/healthy'], timeout: 1 } }),
      `${A}  ExecSync          default/probedemo liveness  cmd=cat /tmp/healthy timeout=1s    1.3ms  OK`,
    ],
    [
      'ExecSync with a failing exit code (when the runtime reports it)',
      rec('ExecSync', { ...liveness, request: { cmd: ['cat', '/tmp/healthy'], timeout: 1 }, response: { exitCode: 1 } }),
      `${A}  ExecSync          default/probedemo liveness  cmd=cat /tmp/healthy timeout=1s    1.3ms  OK (exit code 1)`,
    ],
    [
      'StopContainer: the grace period',
      rec('StopContainer', { ...liveness, request: { timeout: 30 }, durationMs: 1234 }),
      `${A}  StopContainer     default/probedemo liveness  timeout=30s    1.23s  OK`,
    ],
    [
      'a gRPC error with its message',
      rec('ContainerStatus', { containerId: 'abc', code: 'NOT_FOUND', message: 'an error occurred when try to find container "abc": not found', request: { verbose: false } }),
      `${A}  ContainerStatus   -                         verbose=false    1.3ms  NOT_FOUND: an error occurred when try to find container "abc": not found`,
    ],
    [
      'UpdateRuntimeConfig: the pod CIDR',
      rec('UpdateRuntimeConfig', { request: { podCidr: '10.244.1.0/24' } }),
      `${A}  UpdateRuntimeConfig  -                         podCIDR=10.244.1.0/24    1.3ms  OK`,
    ],
    [
      'a list call shows its filter',
      rec('ListContainers', { request: { filter: { podSandboxId: 'sb1' } } }),
      `${A}  ListContainers    -                         filter={"podSandboxId":"sb1"}    1.3ms  OK`,
    ],
  ];
  for (const [name, r, want] of cases) {
    it(name, () => expect(formatLine(r, { color: false, utc: true })).toBe(want));
  }

  it('colours time, arrow, method and status on a TTY', () => {
    const line = formatLine(rec('StartContainer', { ...liveness, code: 'UNKNOWN', message: 'boom' }), { color: true, utc: true });
    expect(line).toBe(
      '\x1b[2m10:41:02.118\x1b[0m  \x1b[36mkubelet(node-1) → containerd(node-1)\x1b[0m  \x1b[1mStartContainer  \x1b[0m  default/probedemo liveness    1.3ms  \x1b[31mUNKNOWN: boom\x1b[0m',
    );
  });
});

describe('pieces', () => {
  it.each([
    [0.43, '0.4ms'],
    [9.96, '10.0ms'],
    [12.34, '12ms'],
    [999.4, '999ms'],
    [1234, '1.23s'],
  ])('duration %s → %s', (ms, want) => expect(formatDurationMs(ms)).toBe(want));

  it.each([
    ['cat', 'cat'],
    ['/tmp/healthy', '/tmp/healthy'],
    ['touch /tmp/healthy; sleep 30', `'touch /tmp/healthy; sleep 30'`],
    [`it's`, `'it'\\''s'`],
    ['', `''`],
  ])('shell word %j → %s', (s, want) => expect(shellWord(s)).toBe(want));

  it('an unknown method shows its scalar request fields, never pod/uid twice', () => {
    expect(requestSummary(rec('RemoveImage', { request: { image: 'nginx:1.27' } }))).toBe('image=nginx:1.27');
    expect(requestSummary(rec('StopPodSandbox', { request: { pod: 'default/x', uid: 'u' } }))).toBe('');
  });

  it('hidden line: singular and plural, dim on a TTY', () => {
    expect(hiddenLine(1, false)).toBe('(1 relist call hidden; --all shows them)');
    expect(hiddenLine(12, false)).toBe('(12 relist calls hidden; --all shows them)');
    expect(hiddenLine(2, true)).toBe('\x1b[2m(2 relist calls hidden; --all shows them)\x1b[0m');
  });
});

describe('toJson', () => {
  it('has stable keys, null when unknown', () => {
    expect(toJson(rec('PullImage', { request: { image: 'busybox:1.36' }, traceId: 't', spanId: 's' }))).toEqual({
      time: T,
      node: 'node-1',
      service: null,
      method: 'PullImage',
      namespace: null,
      pod: null,
      container: null,
      podSandboxId: null,
      containerId: null,
      request: { image: 'busybox:1.36' },
      durationMs: 1.25,
      code: 'OK',
      message: null,
      traceId: 't',
      spanId: 's',
      parentSpanId: null,
    });
  });
  it('names pod, namespace and container', () => {
    expect(toJson(rec('StartContainer', liveness))).toMatchObject({ namespace: 'default', pod: 'probedemo', container: 'liveness', podSandboxId: 'sb1', containerId: 'c1' });
  });
});

describe('HiddenTally', () => {
  it('reports what was hidden at most once per interval, and everything pending when forced', () => {
    const t = new HiddenTally(10_000, 0);
    expect(t.due(20_000)).toBeUndefined(); // nothing hidden yet
    t.note();
    t.note();
    expect(t.due(5_000)).toBeUndefined(); // too soon
    expect(t.due(10_000)).toBe(2);
    t.note();
    expect(t.due(15_000)).toBeUndefined();
    expect(t.due(15_000, true)).toBe(1);
    expect(t.due(40_000, true)).toBeUndefined();
    expect(t.total).toBe(3);
  });
});

describe('the apiserver write line (--all-components)', () => {
  const base = { time: '2025-01-02T10:41:02.101Z', group: '', version: 'v1', resource: 'pods', namespace: 'default', durationMs: 3.14 } as const;
  const cases: [string, ApiWriteRecord, string][] = [
    [
      "a controller's pod create",
      { ...base, verb: 'create', name: 'web-7d9f5-x2x4k', user: 'system:serviceaccount:kube-system:replicaset-controller', component: 'kube-controller-manager', code: 201 },
      '10:41:02.101  kube-controller-manager → kube-apiserver  create            pods default/web-7d9f5-x2x4k  user=system:serviceaccount:kube-system:replicaset-controller    3.1ms  201 Created',
    ],
    [
      "the scheduler's binding",
      { ...base, verb: 'create', subresource: 'binding', name: 'web', user: 'system:kube-scheduler', component: 'kube-scheduler', code: 201 },
      '10:41:02.101  kube-scheduler → kube-apiserver  create            pods/binding default/web  user=system:kube-scheduler    3.1ms  201 Created',
    ],
    [
      'a conflict, without a component: the user',
      { ...base, group: 'apps', resource: 'deployments', verb: 'update', name: 'web', user: 'kubernetes-admin', code: 409 },
      '10:41:02.101  kubernetes-admin → kube-apiserver  update            deployments.apps default/web  user=kubernetes-admin    3.1ms  409 Conflict',
    ],
  ];
  for (const [name, rec, want] of cases) it(name, () => expect(formatApiLine(rec, { color: false, utc: true })).toBe(want));
});

describe('a scheduling decision line (--all-components)', () => {
  const base: SchedulingDecisionRecord = {
    time: '2025-01-02T10:41:02.100Z',
    profile: 'default-scheduler',
    namespace: 'default',
    name: 'web',
    cycle: 1,
    attempts: 1,
    result: 'Scheduled',
    node: 'node-1',
    durationMs: 0.42,
    numAllNodes: 2,
    feasibleNodes: 1,
    filterPlugins: [],
    skippedFilters: [],
    scorePlugins: [],
    nodes: [],
    omittedNodes: 0,
  };
  it.each<[string, SchedulingDecisionRecord, string]>([
    ['scheduled', base, '10:41:02.100  kube-scheduler  Scheduled default/web → node-1 (2 node(s), the only feasible node)    0.4ms'],
    [
      'FailedScheduling',
      { ...base, result: 'Unschedulable', feasibleNodes: 0, message: "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector." },
      "10:41:02.100  kube-scheduler  FailedScheduling default/web: 0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector.    0.4ms",
    ],
  ])('%s', (_n, rec, want) => expect(formatSchedLine(rec, { color: false, utc: true })).toBe(want));
});

describe('formatProxyLine', () => {
  const base: ProxySyncRecord = {
    time: '2026-12-03T10:41:02.300Z',
    node: 'node-1',
    mode: 'iptables',
    dataPath: 'kernel',
    fullSync: false,
    durationMs: 1.2,
    services: 3,
    servicePorts: 4,
    endpoints: 6,
    rules: 41,
  };
  it.each<[string, ProxySyncRecord, string]>([
    [
      'a partial sync with its cause',
      { ...base, trigger: 'EndpointSlice default/web-x7k2p', changes: 2 },
      '10:41:02.300  kube-proxy(node-1)  SyncProxyRules iptables partial: 3 services, 4 ports, 6 endpoints, 41 rules ← EndpointSlice default/web-x7k2p (+1 change)    1.2ms',
    ],
    [
      'a full sync after three changes',
      { ...base, fullSync: true, mode: 'nftables', trigger: 'Service default/web', changes: 3 },
      '10:41:02.300  kube-proxy(node-1)  SyncProxyRules nftables full: 3 services, 4 ports, 6 endpoints, 41 rules ← Service default/web (+2 changes)    1.2ms',
    ],
    ['a periodic sync names no cause', base, '10:41:02.300  kube-proxy(node-1)  SyncProxyRules iptables partial: 3 services, 4 ports, 6 endpoints, 41 rules    1.2ms'],
    ['a failed sync', { ...base, error: 'iptables-restore: exit status 2' }, '10:41:02.300  kube-proxy(node-1)  SyncProxyRules iptables partial failed: iptables-restore: exit status 2    1.2ms'],
  ])('%s', (_n, rec, want) => expect(formatProxyLine(rec, { color: false, utc: true })).toBe(want));
});

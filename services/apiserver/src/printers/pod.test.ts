import { describe, expect, it } from 'vitest';
import { printTable, summarizePod } from './index.js';

const now = new Date('2025-06-01T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const MIN = 60_000;

const running = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  ready: true,
  restartCount: 0,
  image: 'nginx',
  imageID: '',
  state: { running: { startedAt: ago(10 * MIN) } },
  ...extra,
});

function pod(
  opts: { containers?: string[]; init?: { name: string; restartPolicy?: string }[]; status?: Record<string, unknown>; meta?: Record<string, unknown>; spec?: Record<string, unknown> } = {},
) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', creationTimestamp: ago(26 * 60 * MIN), ...opts.meta },
    spec: {
      containers: (opts.containers ?? ['web']).map((n) => ({ name: n, image: 'nginx' })),
      ...(opts.init ? { initContainers: opts.init.map((c) => ({ image: 'busybox', ...c })) } : {}),
      ...opts.spec,
    },
    status: { phase: 'Running', ...opts.status },
  };
}

describe('pod STATUS, READY and RESTARTS', () => {
  it.each<[string, ReturnType<typeof pod>, string, string, string]>([
    ['running and ready', pod({ status: { containerStatuses: [running('web')] } }), '1/1', 'Running', '0'],
    ['pending with no statuses', pod({ status: { phase: 'Pending' } }), '0/1', 'Pending', '0'],
    [
      'ContainerCreating',
      pod({ status: { phase: 'Pending', containerStatuses: [running('web', { ready: false, state: { waiting: { reason: 'ContainerCreating' } } })] } }),
      '0/1',
      'ContainerCreating',
      '0',
    ],
    [
      'CrashLoopBackOff with restarts and last restart age',
      pod({
        status: {
          containerStatuses: [
            running('web', {
              ready: false,
              restartCount: 3,
              state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s' } },
              lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: ago(5 * MIN) } },
            }),
          ],
        },
      }),
      '0/1',
      'CrashLoopBackOff',
      '3 (5m ago)',
    ],
    [
      'ImagePullBackOff',
      pod({ status: { phase: 'Pending', containerStatuses: [running('web', { ready: false, state: { waiting: { reason: 'ImagePullBackOff' } } })] } }),
      '0/1',
      'ImagePullBackOff',
      '0',
    ],
    ['Completed', pod({ status: { phase: 'Succeeded', containerStatuses: [running('web', { ready: false, state: { terminated: { exitCode: 0, reason: 'Completed' } } })] } }), '0/1', 'Completed', '0'],
    ['exit code without reason', pod({ status: { phase: 'Failed', containerStatuses: [running('web', { ready: false, state: { terminated: { exitCode: 137 } } })] } }), '0/1', 'ExitCode:137', '0'],
    ['signal without reason', pod({ status: { phase: 'Failed', containerStatuses: [running('web', { ready: false, state: { terminated: { exitCode: 0, signal: 9 } } })] } }), '0/1', 'Signal:9', '0'],
    [
      'one completed, one running, not Ready → NotReady',
      pod({
        containers: ['a', 'b'],
        status: {
          conditions: [{ type: 'Ready', status: 'False' }],
          containerStatuses: [running('a', { ready: false, state: { terminated: { exitCode: 0, reason: 'Completed' } } }), running('b')],
        },
      }),
      '1/2',
      'NotReady',
      '0',
    ],
    [
      'one completed, one running, Ready → Running',
      pod({
        containers: ['a', 'b'],
        status: {
          conditions: [{ type: 'Ready', status: 'True' }],
          containerStatuses: [running('a', { ready: false, state: { terminated: { exitCode: 0, reason: 'Completed' } } }), running('b')],
        },
      }),
      '1/2',
      'Running',
      '0',
    ],
    ['running but not ready', pod({ status: { containerStatuses: [running('web', { ready: false })] } }), '0/1', 'Running', '0'],
    [
      'Init:0/1 while the init container runs',
      pod({
        init: [{ name: 'setup' }],
        status: {
          phase: 'Pending',
          initContainerStatuses: [running('setup', { ready: false })],
          containerStatuses: [running('web', { ready: false, state: { waiting: { reason: 'PodInitializing' } } })],
        },
      }),
      '0/1',
      'Init:0/1',
      '0',
    ],
    [
      'Init:CrashLoopBackOff',
      pod({
        init: [{ name: 'setup' }],
        status: {
          phase: 'Pending',
          initContainerStatuses: [
            running('setup', { ready: false, restartCount: 2, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 1, finishedAt: ago(30_000) } } }),
          ],
        },
      }),
      '0/1',
      'Init:CrashLoopBackOff',
      '2 (30s ago)',
    ],
    [
      'Init:Error',
      pod({ init: [{ name: 'setup' }], status: { phase: 'Pending', initContainerStatuses: [running('setup', { ready: false, state: { terminated: { exitCode: 1, reason: 'Error' } } })] } }),
      '0/1',
      'Init:Error',
      '0',
    ],
    [
      'Init:ExitCode:2',
      pod({ init: [{ name: 'setup' }], status: { phase: 'Pending', initContainerStatuses: [running('setup', { ready: false, state: { terminated: { exitCode: 2 } } })] } }),
      '0/1',
      'Init:ExitCode:2',
      '0',
    ],
    [
      'a started sidecar counts towards READY',
      pod({
        init: [{ name: 'proxy', restartPolicy: 'Always' }],
        status: {
          conditions: [{ type: 'Initialized', status: 'True' }],
          initContainerStatuses: [running('proxy', { started: true, restartCount: 1, lastState: { terminated: { exitCode: 1, finishedAt: ago(2 * MIN) } } })],
          containerStatuses: [running('web')],
        },
      }),
      '2/2',
      'Running',
      '1 (2m ago)',
    ],
    ['Terminating while deletionTimestamp is set', pod({ meta: { deletionTimestamp: ago(1000) }, status: { containerStatuses: [running('web')] } }), '1/1', 'Terminating', '0'],
    ['Unknown when deleted on an unreachable node', pod({ meta: { deletionTimestamp: ago(1000) }, status: { reason: 'NodeLost', containerStatuses: [running('web')] } }), '1/1', 'Unknown', '0'],
    [
      'a terminal pod being deleted keeps its reason',
      pod({
        meta: { deletionTimestamp: ago(1000) },
        status: { phase: 'Succeeded', containerStatuses: [running('web', { ready: false, state: { terminated: { exitCode: 0, reason: 'Completed' } } })] },
      }),
      '0/1',
      'Completed',
      '0',
    ],
    ['status.reason wins over phase', pod({ status: { phase: 'Failed', reason: 'Evicted' } }), '0/1', 'Evicted', '0'],
    ['SchedulingGated', pod({ status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] } }), '0/1', 'SchedulingGated', '0'],
  ])('%s', (_name, p, ready, status, restarts) => {
    expect(summarizePod(p, now)).toEqual({ ready, status, restarts });
  });
});

describe('pod table', () => {
  it('prints the wide cells and PartialObjectMetadata rows', () => {
    const p = pod({
      spec: { nodeName: 'node-1', readinessGates: [{ conditionType: 'example.com/gate' }] },
      status: { podIPs: [{ ip: '10.244.0.5' }], podIP: '10.244.0.5', containerStatuses: [running('web')], conditions: [{ type: 'example.com/gate', status: 'True' }] },
    });
    const t = printTable('Pod', [p], { now, resourceVersion: '110' });
    expect(t.columnDefinitions.map((c) => [c.name, c.priority])).toEqual([
      ['Name', 0],
      ['Ready', 0],
      ['Status', 0],
      ['Restarts', 0],
      ['Age', 0],
      ['IP', 1],
      ['Node', 1],
      ['Nominated Node', 1],
      ['Readiness Gates', 1],
    ]);
    expect(t.rows[0]!.cells).toEqual(['web', '1/1', 'Running', '0', '26h', '10.244.0.5', 'node-1', '<none>', '1/1']);
    expect(t.rows[0]!.object).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: p.metadata });
    expect(t.metadata).toEqual({ resourceVersion: '110' });
    expect(t.kind).toBe('Table');
    expect(t.apiVersion).toBe('meta.k8s.io/v1');
  });

  it('shows <none> for an unscheduled pod and honours includeObject', () => {
    const p = pod({ status: { phase: 'Pending' } });
    const t = printTable('Pod', [p], { now, includeObject: 'Object' });
    expect(t.rows[0]!.cells.slice(5)).toEqual(['<none>', '<none>', '<none>', '<none>']);
    expect(t.rows[0]!.object).toBe(p);
    expect(printTable('Pod', [p], { now, includeObject: 'None' }).rows[0]!.object).toBeUndefined();
  });
});

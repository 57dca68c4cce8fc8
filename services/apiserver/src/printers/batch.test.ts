import { describe, expect, it } from 'vitest';
import { printTable } from './index.js';

const now = new Date('2025-06-01T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const S = 1000;
const cells = (kind: string, obj: Record<string, unknown>) => printTable(kind, [obj], { now }).rows[0]!.cells;
const headers = (kind: string) =>
  printTable(kind, [], { now })
    .columnDefinitions.map((c) => (c.priority ? `(${c.name})` : c.name))
    .join(' ');

const template = { spec: { containers: [{ name: 'hello', image: 'busybox' }] } };
const job = (spec: Record<string, unknown>, status: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  kind: 'Job',
  metadata: { name: 'hello', creationTimestamp: ago(65 * S), ...extra },
  spec: { selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u1' } }, template, ...spec },
  status,
});

describe('job rows (kubectl get job, 1.32 columns)', () => {
  it('has the upstream headers', () => {
    expect(headers('Job')).toBe('Name Status Completions Duration Age (Containers) (Images) (Selector)');
  });

  it.each([
    ['complete', job({ completions: 1 }, { succeeded: 1, startTime: ago(60 * S), completionTime: ago(52 * S), conditions: [{ type: 'Complete', status: 'True' }] }), ['Complete', '1/1', '8s']],
    ['running, no completions, parallel', job({ parallelism: 3 }, { startTime: ago(10 * S) }), ['Running', '0/1 of 3', '10s']],
    ['not started', job({ completions: 2 }, {}), ['Running', '0/2', '']],
    [
      'failed',
      job(
        { completions: 1 },
        {
          failed: 7,
          startTime: ago(60 * S),
          conditions: [
            { type: 'FailureTarget', status: 'True' },
            { type: 'Failed', status: 'True' },
          ],
        },
      ),
      ['Failed', '0/1', '60s'],
    ],
    ['suspended', job({ completions: 1 }, { conditions: [{ type: 'Suspended', status: 'True' }] }), ['Suspended', '0/1', '']],
    ['terminating', job({ completions: 1 }, {}, { deletionTimestamp: ago(1 * S) }), ['Terminating', '0/1', '']],
  ])('%s', (_n, obj, want) => {
    expect(cells('Job', obj).slice(1, 4)).toEqual(want);
  });

  it('wide cells name containers, images and the selector', () => {
    expect(cells('Job', job({}, {})).slice(4)).toEqual(['65s', 'hello', 'busybox', 'batch.kubernetes.io/controller-uid=u1']);
  });
});

describe('cronjob rows (kubectl get cronjob)', () => {
  it('has the upstream headers', () => {
    expect(headers('CronJob')).toBe('Name Schedule Timezone Suspend Active Last Schedule Age (Containers) (Images) (Selector)');
  });

  it('prints schedule, zone, suspend, active jobs and the last schedule', () => {
    const cj = { kind: 'CronJob', metadata: { name: 'x', creationTimestamp: ago(200 * S) }, spec: { schedule: '*/1 * * * *', suspend: false, jobTemplate: { spec: { template } } }, status: {} };
    expect(cells('CronJob', cj)).toEqual(['x', '*/1 * * * *', '<none>', 'False', 0, '<none>', '3m20s', 'hello', 'busybox', '<none>']);
    const ran = { ...cj, spec: { ...cj.spec, timeZone: 'Europe/Paris', suspend: true }, status: { active: [{ name: 'x-1' }], lastScheduleTime: ago(30 * S) } };
    expect(cells('CronJob', ran).slice(1, 6)).toEqual(['*/1 * * * *', 'Europe/Paris', 'True', 1, '30s']);
  });
});

import { describe, expect, it } from 'vitest';
import type { CriContainerStats__Output } from '@kubelab/proto';
import { CLEAR_SCREEN, formatContainerStats } from './stats.js';

const stat = (id: string, cpuNs: number, tsNs: number, mem: number) =>
  ({
    attributes: { id, metadata: { name: 'app', attempt: 0 }, labels: {}, annotations: {} },
    cpu: { timestamp: String(tsNs), usageCoreNanoSeconds: { value: String(cpuNs) }, usageNanoCores: null },
    memory: { timestamp: String(tsNs), workingSetBytes: { value: String(mem) } },
    writableLayer: { usedBytes: { value: '4096' }, inodesUsed: { value: '12' } },
  }) as unknown as CriContainerStats__Output;

describe('formatContainerStats', () => {
  it('CPU % is the usage delta over the sample time; new and stopped containers are skipped', () => {
    const before = [stat('a'.repeat(64), 1_000_000_000, 1e18, 5_000_000)];
    const after = [stat('a'.repeat(64), 1_250_000_000, 1e18 + 1e9, 5_000_000), stat('b'.repeat(64), 5, 1e18 + 1e9, 1), stat('c'.repeat(64), 0, 1e18 + 1e9, 0)];
    expect(formatContainerStats(before, after, false)).toBe(
      CLEAR_SCREEN +
        'CONTAINER           NAME                CPU %               MEM                 DISK                INODES              SWAP\n' +
        'aaaaaaaaaaaaa       app                 25.00               5MB                 4.096kB             12                  0B\n',
    );
  });
  it('a cpu counter that did not move in time is an error', () => {
    const s = stat('a', 10, 5, 1);
    expect(() => formatContainerStats([s], [stat('a', 20, 5, 1)], false)).toThrow('cpu stat is not updated during sample');
  });
});

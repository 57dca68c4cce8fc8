import { describe, expect, it } from 'vitest';
import type { Container } from '@kubelab/api';
import { linuxContainerResources } from './resources.js';

describe('linuxContainerResources', () => {
  it.each([
    ['no resources', undefined, { cpuPeriod: 100000, cpuQuota: 0, cpuShares: 2, memoryLimitInBytes: 0 }],
    ['limits 500m / 128Mi', { limits: { cpu: '500m', memory: '128Mi' } }, { cpuPeriod: 100000, cpuQuota: 50000, cpuShares: 512, memoryLimitInBytes: 134217728 }],
    ['request 250m, limit 2', { requests: { cpu: '250m' }, limits: { cpu: '2' } }, { cpuPeriod: 100000, cpuQuota: 200000, cpuShares: 256, memoryLimitInBytes: 0 }],
    ['a tiny limit gets the smallest quota', { limits: { cpu: '1m' } }, { cpuPeriod: 100000, cpuQuota: 1000, cpuShares: 2, memoryLimitInBytes: 0 }],
    ['memory in decimal units', { limits: { memory: '1G' } }, { cpuPeriod: 100000, cpuQuota: 0, cpuShares: 2, memoryLimitInBytes: 1e9 }],
  ])('%s', (_name, resources, want) => {
    const c = { name: 'c', ...(resources ? { resources } : {}) } as Container;
    expect(linuxContainerResources(c)).toEqual(want);
  });
});

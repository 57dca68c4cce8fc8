// The cgroup settings the kubelet asks the runtime for (upstream
// kuberuntime_container_linux.go calculateLinuxResources): CPU shares from
// the request, the CFS quota from the CPU limit over a 100 ms period, the
// memory limit in bytes. They reach the container as /sys/fs/cgroup's
// cpu.weight, cpu.max and memory.max, and memory.max is where the OOM killer acts.

import { parseQuantity, type Container } from '@kubelab/api';

/** runtime.v1 LinuxContainerResources, the fields kubelab's runtime reads. */
export interface LinuxContainerResources {
  cpuPeriod: number;
  cpuQuota: number;
  cpuShares: number;
  memoryLimitInBytes: number;
}

/** cgroup v1 cpu.shares bounds, and the shares of one CPU. */
const MIN_SHARES = 2;
const MAX_SHARES = 262_144;
const SHARES_PER_CPU = 1024;
/** The CFS period (µs) and the smallest quota the kernel takes. */
const QUOTA_PERIOD = 100_000;
const MIN_QUOTA_PERIOD = 1000;

/** milliCPUToShares: a request of 0 (none) still gets the minimum. */
export function milliCpuToShares(milliCpu: number): number {
  if (milliCpu === 0) return MIN_SHARES;
  return Math.min(MAX_SHARES, Math.max(MIN_SHARES, Math.floor((milliCpu * SHARES_PER_CPU) / 1000)));
}

/** milliCPUToQuota: 0 (no quota) without a limit. */
export function milliCpuToQuota(milliCpu: number, period = QUOTA_PERIOD): number {
  if (milliCpu === 0) return 0;
  return Math.max(MIN_QUOTA_PERIOD, Math.floor((milliCpu * period) / 1000));
}

const milli = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? parseQuantity(String(v)).milliValue() : 0);
const bytes = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? parseQuantity(String(v)).value() : 0);

/** A container's cgroup settings from its requests and limits. */
export function linuxContainerResources(c: Container): LinuxContainerResources {
  const requests = c.resources?.requests ?? {};
  const limits = c.resources?.limits ?? {};
  // A limit without a request requests the limit (the API server's defaulting).
  const cpuRequest = milli(requests.cpu ?? limits.cpu);
  const cpuLimit = milli(limits.cpu);
  return {
    cpuPeriod: QUOTA_PERIOD,
    cpuQuota: milliCpuToQuota(cpuLimit),
    cpuShares: milliCpuToShares(cpuRequest),
    memoryLimitInBytes: bytes(limits.memory),
  };
}

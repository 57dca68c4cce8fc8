// The host as cadvisor would describe it, for kubelet unit tests (upstream
// kubelet_test.go's fake cadvisor MachineInfo): one fixture shared by the
// test kubelet and the node status tests.

import type { MachineInfo } from '../nodestatus/setters.js';

/** A 2-CPU, 4 GiB, 100 GiB-disk amd64 Linux node. */
export const MACHINE: MachineInfo = {
  cpu: 2,
  memoryBytes: 4 * 1024 ** 3,
  ephemeralStorageBytes: 100 * 1024 ** 3,
  maxPods: 110,
  nodeInfo: {
    machineID: 'm',
    systemUUID: 's',
    bootID: 'b',
    kernelVersion: '6.1.0',
    osImage: 'Debian GNU/Linux 12 (bookworm)',
    kubeletVersion: 'v1.32.0',
    kubeProxyVersion: '',
    operatingSystem: 'linux',
    architecture: 'amd64',
  },
};

// What upstream's cadvisor MachineInfo gives kubelet_node_status.go: CPUs,
// memory, the root-dir filesystem and the OS identity, read once from the
// host when the kubelet starts.

import { readFileSync, statfsSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { KUBELET_VERSION } from '../version.js';
import { goArch, type MachineInfo } from './setters.js';

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return '';
  }
}

/** The host's machine info; `memoryCapacityBytes` replaces the host's memory (kubelab's simulated capacity). */
export function machineInfo(c: { rootDir: string; maxPods: number; memoryCapacityBytes?: number }): MachineInfo {
  let storage = 0;
  for (const dir of [c.rootDir, '/']) {
    try {
      const s = statfsSync(dir);
      storage = s.blocks * s.bsize;
      break;
    } catch {
      // try the next
    }
  }
  const osRelease = readText('/etc/os-release');
  const pretty = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(osRelease)?.[1] ?? 'Linux';
  return {
    cpu: cpus().length,
    memoryBytes: c.memoryCapacityBytes ?? totalmem(),
    ephemeralStorageBytes: storage,
    maxPods: c.maxPods,
    nodeInfo: {
      machineID: readText('/etc/machine-id'),
      systemUUID: readText('/sys/class/dmi/id/product_uuid') || readText('/etc/machine-id'),
      bootID: readText('/proc/sys/kernel/random/boot_id'),
      kernelVersion: release(),
      osImage: pretty,
      kubeletVersion: KUBELET_VERSION,
      kubeProxyVersion: '',
      operatingSystem: 'linux',
      architecture: goArch(process.arch),
    },
  };
}

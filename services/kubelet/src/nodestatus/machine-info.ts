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

/** What every kubelet of this process reads the same from the host (many hollow nodes share one process): read once. */
interface HostFacts {
  cpu: number;
  osImage: string;
  machineID: string;
  systemUUID: string;
  bootID: string;
  kernelVersion: string;
}
let hostFacts: HostFacts | undefined;

function readHostFacts(): HostFacts {
  const osRelease = readText('/etc/os-release');
  const machineID = readText('/etc/machine-id');
  return {
    cpu: cpus().length,
    osImage: /^PRETTY_NAME="?([^"\n]*)"?/m.exec(osRelease)?.[1] ?? 'Linux',
    machineID,
    systemUUID: readText('/sys/class/dmi/id/product_uuid') || machineID,
    bootID: readText('/proc/sys/kernel/random/boot_id'),
    kernelVersion: release(),
  };
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
  const host = (hostFacts ??= readHostFacts());
  return {
    cpu: host.cpu,
    memoryBytes: c.memoryCapacityBytes ?? totalmem(),
    ephemeralStorageBytes: storage,
    maxPods: c.maxPods,
    nodeInfo: {
      machineID: host.machineID,
      systemUUID: host.systemUUID,
      bootID: host.bootID,
      kernelVersion: host.kernelVersion,
      osImage: host.osImage,
      kubeletVersion: KUBELET_VERSION,
      kubeProxyVersion: '',
      operatingSystem: 'linux',
      architecture: goArch(process.arch),
    },
  };
}

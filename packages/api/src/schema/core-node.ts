// The schema of core/v1 Node (k8s.io/api/core/v1 types.go).

import { cond, top, type TypeDef } from './definition.js';

export const NODE_TYPES: Record<string, TypeDef> = {
  Node: {
    group: 'core',
    description: 'A Node is a worker machine. Its kubelet registers it and reports its status; the scheduler places pods on it.',
    fields: top({ spec: ['NodeSpec', 'How the node is configured.'], status: ['NodeStatus', 'The most recently observed status of the node. Read-only.'] }),
  },
  NodeSpec: {
    group: 'core',
    description: 'The configuration of a node.',
    fields: {
      podCIDR: ['string', 'The pod IP range assigned to the node.'],
      podCIDRs: ['[]string', 'The pod IP ranges assigned to the node.', { patchStrategy: 'merge' }],
      providerID: ['string', 'The cloud provider ID.'],
      unschedulable: ['boolean', 'When true, no new pods are scheduled here (kubectl cordon).'],
      taints: ['[]Taint', 'Taints that repel pods not tolerating them.'],
      configSource: ['object', 'Deprecated.'],
      externalID: ['string', 'Deprecated.'],
    },
  },
  Taint: {
    group: 'core',
    description: 'A taint repels pods that do not tolerate it.',
    fields: {
      key: ['string', 'The taint key.', { required: true }],
      value: ['string', 'The taint value.'],
      effect: ['string', 'NoSchedule, PreferNoSchedule or NoExecute.', { required: true }],
      timeAdded: ['Time', 'When a NoExecute taint was added.'],
    },
  },
  NodeStatus: {
    group: 'core',
    description: 'The observed state of a node.',
    fields: {
      capacity: ['map[string]Quantity', 'Total resources of the node.'],
      allocatable: ['map[string]Quantity', 'Resources available to pods.'],
      phase: ['string', 'Deprecated.'],
      conditions: ['[]NodeCondition', 'Ready, MemoryPressure, DiskPressure, PIDPressure, NetworkUnavailable.', { patchStrategy: 'merge', patchMergeKey: 'type' }],
      addresses: ['[]NodeAddress', 'Addresses of the node.', { patchStrategy: 'merge', patchMergeKey: 'type' }],
      daemonEndpoints: ['NodeDaemonEndpoints', 'Ports of daemons on the node.'],
      nodeInfo: ['NodeSystemInfo', 'Versions and IDs of the node.'],
      images: ['[]ContainerImage', 'Images on the node.'],
      volumesInUse: ['[]string', 'Volumes in use.'],
      volumesAttached: ['[]AttachedVolume', 'Volumes attached.'],
      config: ['object', 'Dynamic config status.'],
      runtimeHandlers: ['object', 'Runtime handlers.'],
      features: ['object', 'Node features.'],
    },
  },
  NodeCondition: {
    group: 'core',
    description: 'A condition of a node.',
    fields: { ...cond('node'), lastHeartbeatTime: ['Time', 'When the kubelet last reported it.'] },
  },
  NodeAddress: {
    group: 'core',
    description: 'An address of a node.',
    fields: { type: ['string', 'Hostname, InternalIP, ExternalIP, InternalDNS or ExternalDNS.', { required: true }], address: ['string', 'The address.', { required: true }] },
  },
  NodeDaemonEndpoints: { group: 'core', description: 'Ports of daemons on a node.', fields: { kubeletEndpoint: ['DaemonEndpoint', 'The kubelet endpoint.'] } },
  DaemonEndpoint: { group: 'core', description: 'A daemon port.', fields: { Port: ['int32', 'The port.', { required: true }] } },
  NodeSystemInfo: {
    group: 'core',
    description: 'Identity and versions of a node.',
    fields: {
      machineID: ['string', 'Machine ID.', { required: true }],
      systemUUID: ['string', 'System UUID.', { required: true }],
      bootID: ['string', 'Boot ID.', { required: true }],
      kernelVersion: ['string', 'Kernel version (uname -r).', { required: true }],
      osImage: ['string', 'OS image (/etc/os-release).', { required: true }],
      containerRuntimeVersion: ['string', 'Runtime and version, e.g. containerd://1.7.', { required: true }],
      kubeletVersion: ['string', 'Kubelet version.', { required: true }],
      kubeProxyVersion: ['string', 'Deprecated.', { required: true }],
      operatingSystem: ['string', 'linux.', { required: true }],
      architecture: ['string', 'amd64, arm64, ...', { required: true }],
      swap: ['object', 'Swap information.'],
    },
  },
  ContainerImage: { group: 'core', description: 'An image on a node.', fields: { names: ['[]string', 'Names of the image.'], sizeBytes: ['int64', 'Size in bytes.'] } },
  AttachedVolume: { group: 'core', description: 'An attached volume.', fields: { name: ['string', 'Name.', { required: true }], devicePath: ['string', 'Device path.', { required: true }] } },
};

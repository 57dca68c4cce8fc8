#!/usr/bin/env node
// Process entry: `node dist/main.js --node-name node-1 --address /run/containerd/containerd.sock`.

import { FlagError, FlagSet, createLogger, onShutdown, type LogLevel, installLeanAsyncResourceBind } from '@kubelab/component-base';
import { readNatsTls, type NatsClientTls } from '@kubelab/nats';
import { addTracingFlags, setupTracing, tracingOptionsFromFlags, type Tracing } from '@kubelab/tracing';
import { DEFAULT_ADDRESS, DEFAULT_ROOT, startContainerd } from './index.js';
import { followNodeFaults } from './node-faults.js';
import type { NetworkMode } from './network.js';

// Off every HTTP/2 request this process makes: Node 20's per-call AsyncResource#bind cost (async-resource-bind.ts).
installLeanAsyncResourceBind();

const flags = addTracingFlags(
  new FlagSet('kubelab-containerd')
    .string('node-name', '', 'Name of the node this runtime serves (call records, NATS subjects). Required.')
    .string('address', DEFAULT_ADDRESS, 'Unix socket for the CRI gRPC server (containerd: grpc.address).')
    .string('root', DEFAULT_ROOT, 'State directory; the state file here lets a restarted runtime recover its sandboxes and containers.')
    .int('health-port', 1338, 'HTTP port for /healthz, /livez, /readyz and /metrics (0 picks a free one).')
    .string('health-bind-address', '127.0.0.1', 'Address the health/metrics server binds.')
    .string('nats-url', '', 'NATS server for CRI call records (kubelab.cri.<node>.<method>); empty logs them at debug level.')
    .string('nats-ca-file', '', "kubelab: CA file that signed the NATS server's certificate (the cluster's pki/etcd/ca.crt).")
    .string('nats-cert-file', '', "kubelab: client certificate for NATS (CN kubelab:containerd:<node-name>: may publish only this node's records).")
    .string('nats-key-file', '', 'kubelab: private key of --nats-cert-file.')
    .float('time-scale', 1, 'Container time runs this many times faster than wall time (sleep 30 takes 30/N s; grace periods too).')
    .float('pull-speed', 50, 'Simulated registry bandwidth in MB/s; pull time = image size / speed; 0 pulls instantly.')
    .string('network-mode', 'loopback', 'loopback: container ports served on 127.0.0.1 (reported in PodSandboxStatus info); pod-ip: bind the pod IP (it must exist on an interface).')
    .string(
      'pod-cidr',
      '',
      "Pod CIDR to use before the kubelet sends one with UpdateRuntimeConfig (unset: sandboxes get addresses from 127.88.0.0/16; in pod-ip mode only loopback ranges, or ranges with addresses on this namespace's interfaces, are taken).",
    )
    .bool(
      'pod-network-owned',
      false,
      "kubelab: this network namespace is the project's own (a compose node, whose podCIDR is a local route): a pod CIDR is taken as the kubelet sends it, without the loopback-or-interface check.",
    )
    .string('host-port-address', '127.0.0.1', "kubelab: the node's address hostPort mappings without a hostIP are served on (the CNI portmap plugin's DNAT target).")
    .string('stream-server-address', '127.0.0.1', 'Address of the streaming server CRI Exec URLs point at (containerd: stream_server_address).')
    .int('stream-server-port', 0, 'Port of the streaming server; 0 picks a free one (containerd: stream_server_port).')
    .string(
      'socket-lb-dir',
      '',
      "kubelab, loopback mode: the node's socket-LB directory (pods.json kept here from every node's runtime, services.json from kube-proxy); containers reach other pods and Services through it. Empty: a pod reaches only itself.",
    )
    .string('v', 'info', 'Log level: debug, info, warn, error.'),
);

let values;
try {
  values = flags.parse(process.argv.slice(2)).values;
} catch (err) {
  process.stderr.write(`${(err as FlagError).message}\n`);
  process.exit(2);
}
if (!values['node-name']) {
  process.stderr.write('--node-name is required\n');
  process.exit(2);
}
let natsTls: NatsClientTls | undefined;
try {
  natsTls = readNatsTls({ caFile: values['nats-ca-file'], certFile: values['nats-cert-file'], keyFile: values['nats-key-file'] });
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(2);
}
const mode = values['network-mode'];
if (mode !== 'loopback' && mode !== 'pod-ip') {
  process.stderr.write(`invalid argument "${mode}" for "--network-mode" flag: must be loopback or pod-ip\n`);
  process.exit(2);
}
const logger = createLogger({ component: 'containerd', node: values['node-name'], level: values.v as LogLevel, style: 'logrus' });
let tracing: Tracing;
try {
  // Unset sampling rate: follow the kubelet's decision, never start traces here.
  // 'sync' context: the CRI server hands each call's span over explicitly (serverSpanOf), no per-promise hook.
  tracing = setupTracing({ serviceName: 'containerd', node: values['node-name'], contextPropagation: 'sync', ...tracingOptionsFromFlags(values) });
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(2);
}
try {
  const handle = await startContainerd({
    nodeName: values['node-name'],
    address: values.address,
    root: values.root,
    healthPort: values['health-port'],
    healthHost: values['health-bind-address'],
    ...(values['nats-url'] ? { natsUrl: values['nats-url'] } : {}),
    ...(natsTls ? { natsTls } : {}),
    timeScale: values['time-scale'],
    pullBytesPerSecond: values['pull-speed'] * 1e6,
    networkMode: mode as NetworkMode,
    ...(values['pod-cidr'] ? { podCidr: values['pod-cidr'] } : {}),
    podNetworkOwned: values['pod-network-owned'],
    hostPortAddress: values['host-port-address'],
    streamServerAddress: values['stream-server-address'],
    streamServerPort: values['stream-server-port'],
    ...(values['socket-lb-dir'] ? { socketLbDir: values['socket-lb-dir'] } : {}),
    // As upstream: every sandbox's containers run in its shim and outlive a restart of containerd.
    shims: true,
    logger,
    tracing,
  });
  // The node's injected faults (a read-only remount), under the node root as the node's tools see it.
  const stopFaults = followNodeFaults(process.env.KUBELAB_NODE_ROOT || '/');
  onShutdown(async (signal) => {
    logger.info('shutting down', { signal });
    stopFaults();
    await handle.stop();
    await tracing.shutdown();
  });
} catch (err) {
  logger.error('failed to start', { err: (err as Error).message });
  process.exit(1);
}

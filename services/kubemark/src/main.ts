#!/usr/bin/env node
// hollow-node process entry (upstream cmd/kubemark, --morph=kubelet, for a
// range of nodes): `hollow-node --first 1 --count 250 --nodes-dir DIR
// --bootstrap-kubeconfig FILE --client-ca-file FILE ...`; SIGTERM/SIGINT stop
// every node of the process; --control-socket answers `kubelab hollow`.

import { readFileSync } from 'node:fs';
import { FlagError, FlagSet, apiserverAddressFrom, onShutdown, runMain, withApiserverFlags, installLeanAsyncResourceBind } from '@kubelab/component-base';
import { parseLabels } from '@kubelab/kubelet';
import { DEFAULT_ZONES, LOOPBACK_PLAN, hollowNodeIP, interfacePlan, planCapacity } from './addresses.js';
import { addInterfaceAddresses, interfaceCidr } from './interface-addresses.js';
import { startCpuProfile } from './profile.js';
import { startHollowWorker } from './worker.js';
import { serveControl } from './control.js';

// Off every HTTP/2 request this process makes: Node 20's per-call AsyncResource#bind cost (async-resource-bind.ts).
installLeanAsyncResourceBind();

function flags() {
  return withApiserverFlags(new FlagSet('hollow-node'))
    .string('name-prefix', 'node-', 'Node names are <prefix><number>.')
    .int('first', 1, 'Number of the first node this process runs.')
    .int('count', 1, 'How many nodes this process runs (numbers first … first+count-1).')
    .string('nodes-dir', '', "Folder holding each node's folder (<nodes-dir>/<name>: kubelet.conf, kubelet/, containerd/, pods/, root/, logs/). Required.")
    .string('bootstrap-kubeconfig', '', "kubeadm's bootstrap-kubelet.conf: each node asks for its own client certificate with its token. Required.")
    .string('client-ca-file', '', 'The cluster CA: client certificates it signed authenticate at the kubelet API. Required.')
    .int('port', 10250, "The kubelet API's port, the same on every node (each listens on its own address, 127.100.x.y).")
    .int('stream-server-port', 10010, "The runtime's streaming server port (exec, attach, port-forward) on each node's address.")
    .stringArray('node-labels', [], 'Labels every node registers with (key=value,...), as upstream kubemark passes its hollow kubelets.')
    .stringArray('zones', [...DEFAULT_ZONES], 'Zones the nodes are labelled with (topology.kubernetes.io/zone), round-robin by node number.')
    .int('concurrency', 25, 'Nodes starting at once.')
    .float('time-scale', 1, 'Kubelet and container time run this many times faster than wall time.')
    .float('pull-speed', 0, 'Simulated registry bandwidth in MB/s; 0 pulls instantly.')
    .stringArray('cluster-dns', [], 'The cluster DNS server addresses ClusterFirst pods get.')
    .string('cluster-domain', '', "The cluster's DNS domain.")
    .int('v', 2, "The kubelets' log verbosity.")
    .int('node-lease-duration-seconds', 40, "The kubelets' Lease duration; each renews its Lease every quarter of it.")
    .duration('node-status-update-frequency', 10_000, 'How often each kubelet computes its node status.')
    .string(
      'node-ip-interface',
      '',
      "kubelab: take the nodes' addresses from the top /22 of this interface's IPv4 network and add them to it (a container's eth0; needs CAP_NET_ADMIN). Empty: 127.100.x.y on the host's loopback.",
    )
    .string('control-socket', '', "kubelab: a unix socket answering `kubelab hollow status|stop|start` for this process's nodes (none when empty).");
}

async function main(): Promise<void> {
  const v = flags().parse(process.argv.slice(2)).values;
  for (const f of ['nodes-dir', 'bootstrap-kubeconfig', 'client-ca-file'] as const) if (!v[f]) throw new FlagError(`--${f} is required`);
  const iface = v['node-ip-interface'];
  const addresses = iface ? interfacePlan(interfaceCidr(iface)) : LOOPBACK_PLAN;
  const max = planCapacity(addresses);
  if (v.first < 1 || v.count < 0 || v.first + v.count - 1 > max) throw new FlagError(`--first and --count must name nodes within 1..${max}`);
  if (v.zones.length === 0) throw new FlagError('--zones needs at least one zone');
  const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
  const stopStartupProfile = startCpuProfile(
    process.env.KUBELAB_CPU_PROFILE_STARTUP === '1' && process.env.KUBELAB_CPU_PROFILE ? `${process.env.KUBELAB_CPU_PROFILE}.${process.pid}.start.cpuprofile` : undefined,
  );
  if (iface) {
    const ips = Array.from({ length: v.count }, (_, k) => hollowNodeIP(v.first + k, addresses));
    await addInterfaceAddresses(iface, ips);
    if (ips.length) log(`added the nodes' addresses to ${iface}: ${ips[0]} … ${ips[ips.length - 1]}`);
  }
  const worker = await startHollowWorker({
    prefix: v['name-prefix'],
    first: v.first,
    count: v.count,
    nodesDir: v['nodes-dir'],
    zones: v.zones,
    addresses,
    nodeLabels: parseLabels(v['node-labels']),
    concurrency: v.concurrency,
    apiserver: apiserverAddressFrom(v),
    bootstrapKubeconfig: v['bootstrap-kubeconfig'],
    clientCaPem: readFileSync(v['client-ca-file'], 'utf8'),
    kubeletPort: v.port,
    streamPort: v['stream-server-port'],
    timeScale: v['time-scale'] > 0 ? v['time-scale'] : 1,
    pullBytesPerSecond: v['pull-speed'] * 1e6,
    clusterDNS: v['cluster-dns'],
    clusterDomain: v['cluster-domain'],
    verbosity: v.v,
    nodeLeaseDurationSeconds: v['node-lease-duration-seconds'],
    nodeStatusUpdateFrequencyMs: v['node-status-update-frequency'],
    log,
  });
  const control = v['control-socket'] ? await serveControl(v['control-socket'], worker) : undefined;
  log(`starting ${v.count} hollow nodes (${v['name-prefix']}${v.first} …), logs in ${v['nodes-dir']}/<node>/logs/`);
  onShutdown(async (signal) => {
    log(`${signal}: stopping ${worker.nodes.size} hollow nodes`);
    control?.close();
    await worker.stop();
  });
  // KUBELAB_CPU_PROFILE=<file>: a profile of the steady state, from 20 s after every node started, for KUBELAB_CPU_PROFILE_SECONDS (60);
  // with KUBELAB_CPU_PROFILE_STARTUP=1, of the start (until every node started).
  const profileTo = process.env.KUBELAB_CPU_PROFILE;
  if (profileTo && process.env.KUBELAB_CPU_PROFILE_STARTUP === '1') {
    await worker.started;
    await stopStartupProfile();
    log('wrote the CPU profile of the start');
  } else if (profileTo) {
    await worker.started;
    await new Promise((r) => setTimeout(r, 20_000));
    const stop = startCpuProfile(`${profileTo}.${process.pid}.cpuprofile`);
    setTimeout(() => void stop().then(() => log('wrote the CPU profile')), Number(process.env.KUBELAB_CPU_PROFILE_SECONDS ?? 60) * 1000);
  }
}

runMain('hollow-node', main);

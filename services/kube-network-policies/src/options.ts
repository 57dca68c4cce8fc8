// The agent's command line: kube-network-policies' flags that apply here
// (--hostname-override, --metrics-bind-address), the cluster's pod CIDR, the
// shared apiserver flags, and kubelab's --apply as kube-proxy's.

import { hostname } from 'node:os';
import { apiserverAddressFrom, FlagSet, withApiserverFlags } from '@kubelab/component-base';

export function policyAgentFlags() {
  return withApiserverFlags(new FlagSet('kube-network-policies'))
    .string('hostname-override', '', 'If non-empty, will be used as the name of the Node this agent enforces policies on.')
    .string('cluster-cidr', '10.244.0.0/16', "The pod network's CIDR: other local addresses are the node's own, whose traffic to its pods is always allowed.")
    .string('metrics-bind-address', '0.0.0.0:9080', 'The IP address and port for the metrics, health and /rules server to serve on.')
    .string('socket-lb-dir', '', "If non-empty, write each pod's resolved allow lists to policies.json there, for the local runner's connect hook (kubelab).")
    .string('apply', 'auto', "'auto' applies rules when iptables works in this network namespace, 'never' only renders them (kubelab).");
}

export interface PolicyAgentCommand {
  nodeName: string;
  clusterCIDR: string;
  bindAddress: string;
  apiserverAddress: string;
  kubeconfig: string;
  apply: 'auto' | 'never';
  socketLbDir: string;
}

export function parsePolicyAgentCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): PolicyAgentCommand {
  const { values: f } = policyAgentFlags().parse(argv, env);
  if (f.apply !== 'auto' && f.apply !== 'never') throw new Error(`invalid argument "${f.apply}" for "--apply" flag: want auto or never`);
  return {
    nodeName: (f['hostname-override'] || hostname()).toLowerCase(),
    clusterCIDR: f['cluster-cidr'],
    bindAddress: f['metrics-bind-address'],
    apiserverAddress: apiserverAddressFrom(f),
    kubeconfig: f.kubeconfig,
    apply: f.apply,
    socketLbDir: f['socket-lb-dir'],
  };
}

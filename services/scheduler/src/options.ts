// kube-scheduler's command-line flags with upstream names and defaults.
// kubelab has no kubeconfig: the apiserver's gRPC address comes from
// --apiserver-grpc-address (or upstream's --master, which overrides it).

import { FlagSet, withApiserverFlags, withLeaderElectionFlags, withSecureServingFlags } from '@kubelab/component-base';
import { addTracingFlags } from '@kubelab/tracing';

export function schedulerFlags() {
  return withSecureServingFlags(withLeaderElectionFlags(addTracingFlags(withApiserverFlags(new FlagSet('kube-scheduler'))), 'kube-scheduler'))
    .string('bind-address', '0.0.0.0', 'The IP address on which to listen for the --secure-port port')
    .int('secure-port', 10259, 'The port on which to serve HTTPS with authentication and authorization (/healthz, /readyz, /livez, /metrics). 0 picks a free port')
    .int('pod-initial-backoff-seconds', 1, 'Initial backoff for unschedulable pods (KubeSchedulerConfiguration podInitialBackoffSeconds)')
    .int('pod-max-backoff-seconds', 10, 'Max backoff for unschedulable pods (KubeSchedulerConfiguration podMaxBackoffSeconds)')
    .int('percentage-of-nodes-to-score', 0, 'Percentage of nodes to find feasible before scoring; 0 = adaptive (KubeSchedulerConfiguration percentageOfNodesToScore)')
    .string('scheduler-name', 'default-scheduler', "The profile's schedulerName: pods with this spec.schedulerName are scheduled by this instance")
    .string('nats-url', '', 'kubelab: NATS server for the decision record of each scheduling cycle (kubelab.sched.<namespace>.<pod>); empty: none is built.')
    .string('nats-ca-file', '', "kubelab: CA file that signed the NATS server's certificate (the cluster's pki/etcd/ca.crt).")
    .string('nats-cert-file', '', 'kubelab: client certificate for NATS (CN kubelab:scheduler: may publish only decision records).')
    .string('nats-key-file', '', 'kubelab: private key of --nats-cert-file.');
}

export type SchedulerFlagValues = ReturnType<ReturnType<typeof schedulerFlags>['parse']>['values'];

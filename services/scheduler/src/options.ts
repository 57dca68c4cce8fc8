// kube-scheduler's command-line flags with upstream names and defaults.
// kubelab has no kubeconfig: the apiserver's gRPC address comes from
// --master (upstream's flag that overrides the kubeconfig's server), or its
// kubelab alias --apiserver.

import { FlagSet } from '@kubelab/component-base';

export const DEFAULT_APISERVER_ADDRESS = '127.0.0.1:6444';

export function schedulerFlags() {
  return new FlagSet('kube-scheduler')
    .string('master', '', `The address of the apiserver's gRPC API (host:port). kubelab has no kubeconfig; default ${DEFAULT_APISERVER_ADDRESS}`)
    .string('apiserver', '', 'kubelab alias of --master')
    .string('bind-address', '0.0.0.0', 'The IP address on which to listen for the --secure-port port (served as plain HTTP in kubelab)')
    .int('secure-port', 10259, 'The port on which to serve /healthz, /readyz, /livez and /metrics. 0 picks a free port')
    .bool('leader-elect', true, 'Start a leader election client and gain leadership before executing the main loop. Enable this when running replicated components for high availability')
    .duration('leader-elect-lease-duration', 15_000, 'The duration that non-leader candidates will wait after observing a leadership renewal until attempting to acquire leadership of a led but unrenewed leader slot')
    .duration('leader-elect-renew-deadline', 10_000, 'The interval between attempts by the acting master to renew a leadership slot before it stops leading. This must be less than the lease duration')
    .duration('leader-elect-retry-period', 2_000, 'The duration the clients should wait between attempting acquisition and renewal of a leadership')
    .string('leader-elect-resource-lock', 'leases', "The type of resource object that is used for locking during leader election. Supported options are 'leases'")
    .string('leader-elect-resource-name', 'kube-scheduler', 'The name of resource object that is used for locking during leader election')
    .string('leader-elect-resource-namespace', 'kube-system', 'The namespace of resource object that is used for locking during leader election')
    .int('pod-initial-backoff-seconds', 1, 'Initial backoff for unschedulable pods (KubeSchedulerConfiguration podInitialBackoffSeconds)')
    .int('pod-max-backoff-seconds', 10, 'Max backoff for unschedulable pods (KubeSchedulerConfiguration podMaxBackoffSeconds)')
    .int('percentage-of-nodes-to-score', 0, 'Percentage of nodes to find feasible before scoring; 0 = adaptive (KubeSchedulerConfiguration percentageOfNodesToScore)')
    .string('scheduler-name', 'default-scheduler', "The profile's schedulerName: pods with this spec.schedulerName are scheduled by this instance");
}

export type SchedulerFlagValues = ReturnType<ReturnType<typeof schedulerFlags>['parse']>['values'];

// The leader-election flags every replicated control-plane binary shares
// (component-base/config/options BindLeaderElectionFlags), with upstream's
// names and defaults; only the Lease name differs per component.

import { FlagError, type FlagSet } from './flags.js';

/** Adds --leader-elect and the --leader-elect-* flags; the Lease is kube-system/<resourceName> by default. */
export function withLeaderElectionFlags<T extends Record<string, unknown>>(flags: FlagSet<T>, resourceName: string) {
  return flags
    .bool('leader-elect', true, 'Start a leader election client and gain leadership before executing the main loop. Enable this when running replicated components for high availability')
    .duration(
      'leader-elect-lease-duration',
      15_000,
      'The duration that non-leader candidates will wait after observing a leadership renewal until attempting to acquire leadership of a led but unrenewed leader slot',
    )
    .duration('leader-elect-renew-deadline', 10_000, 'The interval between attempts by the acting master to renew a leadership slot before it stops leading. This must be less than the lease duration')
    .duration('leader-elect-retry-period', 2_000, 'The duration the clients should wait between attempting acquisition and renewal of a leadership')
    .string('leader-elect-resource-lock', 'leases', "The type of resource object that is used for locking during leader election. Supported options are 'leases'")
    .string('leader-elect-resource-name', resourceName, 'The name of resource object that is used for locking during leader election')
    .string('leader-elect-resource-namespace', 'kube-system', 'The namespace of resource object that is used for locking during leader election');
}

export interface LeaderElectionFlagValues {
  'leader-elect': boolean;
  'leader-elect-lease-duration': number;
  'leader-elect-renew-deadline': number;
  'leader-elect-retry-period': number;
  'leader-elect-resource-lock': string;
  'leader-elect-resource-name': string;
  'leader-elect-resource-namespace': string;
}

/** The settings for @kubelab/client's runWhenLeading; a lock other than leases is a FlagError. */
export function leaderElectionFrom(values: LeaderElectionFlagValues) {
  const lock = values['leader-elect-resource-lock'];
  if (lock !== 'leases') throw new FlagError(`invalid argument "${lock}" for "--leader-elect-resource-lock" flag: only "leases" is supported`);
  return {
    leaderElect: values['leader-elect'],
    leaseDurationMs: values['leader-elect-lease-duration'],
    renewDeadlineMs: values['leader-elect-renew-deadline'],
    retryPeriodMs: values['leader-elect-retry-period'],
    resourceName: values['leader-elect-resource-name'],
    resourceNamespace: values['leader-elect-resource-namespace'],
  };
}

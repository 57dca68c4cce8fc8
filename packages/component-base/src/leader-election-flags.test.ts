import { describe, expect, it } from 'vitest';
import { FlagSet } from './flags.js';
import { leaderElectionFrom, withLeaderElectionFlags } from './leader-election-flags.js';

const flags = () => withLeaderElectionFlags(new FlagSet('kube-scheduler'), 'kube-scheduler');

describe('leader-election flags', () => {
  it('have upstream defaults, the component naming the Lease', () => {
    expect(leaderElectionFrom(flags().parse([], {}).values)).toEqual({
      leaderElect: true,
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
      resourceName: 'kube-scheduler',
      resourceNamespace: 'kube-system',
    });
  });

  it('read flags and environment', () => {
    const v = flags().parse(['--leader-elect=false', '--leader-elect-lease-duration=40s'], { KUBELAB_LEADER_ELECT_RESOURCE_NAMESPACE: 'kubelab' }).values;
    expect(leaderElectionFrom(v)).toMatchObject({ leaderElect: false, leaseDurationMs: 40_000, resourceNamespace: 'kubelab' });
  });

  it('refuse a lock other than leases with upstream wording', () => {
    const v = flags().parse(['--leader-elect-resource-lock=endpoints'], {}).values;
    expect(() => leaderElectionFrom(v)).toThrow('invalid argument "endpoints" for "--leader-elect-resource-lock" flag: only "leases" is supported');
  });
});

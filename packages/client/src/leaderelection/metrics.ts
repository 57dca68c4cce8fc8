// Leader election status as client-go's leaderelection metrics provider:
// leader_election_master_status{name} is 1 while this instance holds the
// lease `name`, 0 while it is a standby.

import { Gauge, type Registry } from 'prom-client';

/** Upstream leaderMetricsAdapter: told when leadership starts and ends. */
export interface LeaderMetricsProvider {
  leaderOn(name: string): void;
  leaderOff(name: string): void;
}

export const noopLeaderMetrics: LeaderMetricsProvider = { leaderOn() {}, leaderOff() {} };

const gauges = new WeakMap<Registry, Gauge<'name'>>();

/** Registers leader_election_master_status once per registry. */
export function prometheusLeaderElectionMetrics(registry: Registry): LeaderMetricsProvider {
  let g = gauges.get(registry);
  if (!g) {
    g = new Gauge({
      name: 'leader_election_master_status',
      help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
      labelNames: ['name'],
      registers: [registry],
    });
    gauges.set(registry, g);
  }
  const gauge = g;
  return { leaderOn: (name) => gauge.set({ name }, 1), leaderOff: (name) => gauge.set({ name }, 0) };
}

// kube-proxy's metrics (upstream pkg/proxy/metrics), registered on the
// component's registry. Names and buckets as upstream; the per-mode rule
// count without an upstream equivalent carries the kubelab_ prefix.

import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export interface ProxyMetrics {
  syncProxyRulesLatency: Histogram;
  syncProxyRulesLastTimestamp: Gauge;
  syncProxyRulesLastQueuedTimestamp: Gauge;
  iptablesRulesTotal: Gauge<'table'>;
  iptablesRestoreFailuresTotal: Counter;
  nftablesSyncFailuresTotal: Counter;
  syncFailuresTotal: Counter<'mode'>;
  rules: Gauge<'mode'>;
}

function exponentialBuckets(start: number, factor: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => start * factor ** i);
}

export function newProxyMetrics(registry: Registry): ProxyMetrics {
  const registers = [registry];
  return {
    syncProxyRulesLatency: new Histogram({
      name: 'kubeproxy_sync_proxy_rules_duration_seconds',
      help: 'SyncProxyRules latency in seconds',
      buckets: exponentialBuckets(0.001, 2, 15),
      registers,
    }),
    syncProxyRulesLastTimestamp: new Gauge({
      name: 'kubeproxy_sync_proxy_rules_last_timestamp_seconds',
      help: 'The last time proxy rules were successfully synced',
      registers,
    }),
    syncProxyRulesLastQueuedTimestamp: new Gauge({
      name: 'kubeproxy_sync_proxy_rules_last_queued_timestamp_seconds',
      help: 'The last time a sync of proxy rules was queued',
      registers,
    }),
    iptablesRulesTotal: new Gauge({
      name: 'kubeproxy_sync_proxy_rules_iptables_total',
      help: 'Total number of iptables rules owned by kube-proxy',
      labelNames: ['table'],
      registers,
    }),
    iptablesRestoreFailuresTotal: new Counter({
      name: 'kubeproxy_sync_proxy_rules_iptables_restore_failures_total',
      help: 'Cumulative proxy iptables restore failures',
      registers,
    }),
    nftablesSyncFailuresTotal: new Counter({
      name: 'kubeproxy_sync_proxy_rules_nftables_sync_failures_total',
      help: 'Cumulative proxy nftables sync failures',
      registers,
    }),
    syncFailuresTotal: new Counter({
      name: 'kubelab_kube_proxy_sync_failures_total',
      help: 'Cumulative failed syncs of proxy rules, per proxy mode (kubelab)',
      labelNames: ['mode'],
      registers,
    }),
    rules: new Gauge({
      name: 'kubelab_kube_proxy_rules',
      help: 'Rules in the last rendered ruleset, per proxy mode: iptables rule lines, nftables service-chain rules plus map/set elements, IPVS virtual plus real servers (kubelab)',
      labelNames: ['mode'],
      registers,
    }),
  };
}

// The agent's sync (render) time for 1,000 pods × 100 policies, printed as
// JSON lines: pods spread over 10 nodes in 10 namespaces, each policy
// selecting one app of its namespace and allowing ingress from another app
// (pod selector), a labelled namespace, and an ipBlock with an except, on a
// named port; half of them also restrict egress. One line renders node-1
// (its ~100 pods), one renders every pod as if all were local (worst case),
// one resolves the local runner's policies.json (every pod's allow lists).
//
//   pnpm --filter @kubelab/kube-network-policies bench
//   KUBELAB_BENCH_SIZES=1000x100,5000x500 ...

import { decisionInput, renderPolicies, toIptablesSave } from '../dist/index.js';

const sizes = (process.env.KUBELAB_BENCH_SIZES ?? '1000x100').split(',').map((s) => s.split('x').map(Number));
const NODES = 10;
const NAMESPACES = 10;
const APPS = 20;
const RUNS = 5;

function objects(nPods, nPolicies) {
  const namespaces = Array.from({ length: NAMESPACES }, (_, i) => ({ metadata: { name: `ns-${i}`, labels: { 'kubernetes.io/metadata.name': `ns-${i}`, team: `t${i % 3}` } } }));
  const pods = Array.from({ length: nPods }, (_, i) => ({
    metadata: { namespace: `ns-${i % NAMESPACES}`, name: `pod-${i}`, labels: { app: `app-${i % APPS}`, tier: i % 2 ? 'web' : 'db' } },
    spec: { nodeName: `node-${(i % NODES) + 1}`, containers: [{ name: 'c', ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }] }] },
    status: { phase: 'Running', podIP: `10.244.${Math.floor(i / 250)}.${(i % 250) + 1}` },
  }));
  const policies = Array.from({ length: nPolicies }, (_, i) => ({
    metadata: { namespace: `ns-${i % NAMESPACES}`, name: `np-${i}` },
    spec: {
      podSelector: { matchLabels: { app: `app-${i % APPS}` } },
      policyTypes: i % 2 ? ['Ingress', 'Egress'] : ['Ingress'],
      ingress: [
        {
          from: [
            { podSelector: { matchLabels: { app: `app-${(i + 1) % APPS}` } } },
            { namespaceSelector: { matchLabels: { team: `t${i % 3}` } }, podSelector: { matchLabels: { tier: 'web' } } },
            { ipBlock: { cidr: '172.16.0.0/12', except: ['172.17.0.0/16'] } },
          ],
          ports: [
            { protocol: 'TCP', port: 'http' },
            { protocol: 'TCP', port: 9000, endPort: 9100 },
          ],
        },
      ],
      egress: i % 2 ? [{ to: [{ podSelector: { matchLabels: { tier: 'db' } } }], ports: [{ protocol: 'TCP', port: 5432 }] }, { ports: [{ protocol: 'UDP', port: 53 }] }] : [],
    },
  }));
  return { namespaces, pods, policies };
}

const out = (rec) => process.stdout.write(JSON.stringify(rec) + '\n');
for (const [nPods, nPolicies] of sizes) {
  const objs = objects(nPods, nPolicies);
  for (const scope of ['node', 'all-local']) {
    const pods = scope === 'node' ? objs.pods : objs.pods.map((p) => ({ ...p, spec: { ...p.spec, nodeName: 'node-1' } }));
    const input = { nodeName: 'node-1', clusterCIDR: '10.244.0.0/16', namespaces: objs.namespaces, pods, policies: objs.policies };
    renderPolicies(input); // warm-up
    const times = [];
    let rs;
    let text;
    for (let r = 0; r < RUNS; r++) {
      const t = performance.now();
      rs = renderPolicies(input);
      text = toIptablesSave(rs);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    out({
      bench: 'kube-network-policies-sync',
      pods: nPods,
      policies: nPolicies,
      scope,
      isolatedPods: rs.isolated.ingress,
      chains: rs.chains.length,
      rules: rs.ruleCount,
      bytes: text.length,
      renderMsMedian: Number(times[Math.floor(RUNS / 2)].toFixed(1)),
    });
  }
  decisionInput(objs); // warm-up
  const times = [];
  let text;
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    text = JSON.stringify(decisionInput(objs));
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  out({ bench: 'kube-network-policies-socket-lb', pods: nPods, policies: nPolicies, bytes: text.length, resolveMsMedian: Number(times[Math.floor(RUNS / 2)].toFixed(1)) });
}

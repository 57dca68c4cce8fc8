#!/usr/bin/env node
// @ts-check
// The watch cache's fan-out to kubelets (issue 22's hollow nodes): BENCH_NODES
// watchers of pods, each pinned to its node by `spec.nodeName=<node>` as a
// kubelet's informer is, and pod changes spread over the nodes; CPU per pod
// event applied, in three variants measured in the same run, alternating:
//   perWatcher  every watcher's selector evaluated on every event, the
//               object's selectable fields computed per watcher (before 025d804)
//   fieldsOnce  every watcher looked at, fields computed once per object
//   indexed     upstream's indexed trigger: only watchers pinned to the old or
//               new node (and unpinned ones) see the event
// One JSON line: {"bench":"apiserver-watch-triggers", ...}.

import { RESOURCES, objectFields, parseFieldSelector } from '@kubelab/api';

const NODES = Number(process.env.BENCH_NODES ?? 1000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const dist = (p) => new URL(`../dist/${p}`, import.meta.url).href;
const { WatchCache } = await import(dist('cache/watch-cache.js'));
const { watchTrigger } = await import(dist('cache/triggers.js'));
const { compileSelectors } = await import(dist('registry/api-hooks.js'));
const { encodeForStorage } = await import(dist('storage/codec.js'));

const pods = RESOURCES.find((r) => r.resource === 'pods' && r.group === '');
if (!pods) throw new Error('no pods resource');
const podBytes = (name, node) =>
  encodeForStorage({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'web' } },
    spec: { nodeName: node, containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Always', schedulerName: 'default-scheduler', serviceAccountName: 'default' },
    status: { phase: 'Running', podIP: '10.244.0.1' },
  });

/** @param {'perWatcher' | 'fieldsOnce' | 'indexed'} variant */
function run(variant) {
  const cache = new WatchCache(/** @type {never} */ ({}), { bookmarkIntervalMs: 1e9, watcherBuffer: EVENTS + 10 });
  cache.markSynced(0);
  const watchers = [];
  for (let n = 0; n < NODES; n++) {
    const text = `spec.nodeName=node-${n}`;
    const sel = parseFieldSelector(text);
    const predicate = variant === 'perWatcher' ? (o) => sel.matches(objectFields(o)) : compileSelectors(undefined, text);
    const trigger = variant === 'indexed' ? watchTrigger(pods, text) : undefined;
    watchers.push(cache.watch({ info: pods, prefix: '/registry/pods', resourceVersion: '0', predicate, ...(trigger ? { trigger } : {}) }));
  }
  const values = Array.from({ length: 64 }, (_, i) => podBytes(`web-${i}`, `node-${(i * 7919) % NODES}`));
  const t0 = process.cpuUsage();
  for (let e = 1; e <= EVENTS; e++) cache.ingest(`/registry/pods/default/web-${e % 64}`, 'PUT', values[e % 64], e);
  const u = process.cpuUsage(t0);
  const delivered = watchers.reduce((s, w) => s + w.drain().length, 0);
  cache.stop();
  return { usPerEvent: (u.user + u.system) / EVENTS, delivered };
}

const acc = { perWatcher: [], fieldsOnce: [], indexed: [] };
let delivered;
for (let r = 0; r < ROUNDS; r++) {
  for (const v of /** @type {const} */ (['perWatcher', 'fieldsOnce', 'indexed'])) {
    const out = run(v);
    acc[v].push(out.usPerEvent);
    if (delivered === undefined) delivered = out.delivered;
    else if (out.delivered !== delivered) throw new Error(`${v} delivered ${out.delivered} events, another variant ${delivered}`);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const us = Object.fromEntries(Object.entries(acc).map(([k, xs]) => [k, Number(median(xs).toFixed(1))]));
console.log(
  JSON.stringify({
    bench: 'apiserver-watch-triggers',
    watchers: NODES,
    events: EVENTS,
    rounds: ROUNDS,
    delivered,
    cpuUsPerEvent: us,
    indexedVsPerWatcher: Number((us.indexed / us.perWatcher).toFixed(3)),
  }),
);

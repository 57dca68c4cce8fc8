#!/usr/bin/env node
// @ts-check
// REST list benchmark (issue 3): 5,000 pods listed through REST (plain JSON,
// and as the Table `kubectl get pods -A` asks for) against the gRPC List of
// the same apiserver in the same run, plus the wall time of the real
// `kubectl get pods -A`. Prints one JSON line per figure; fails when the REST
// list takes more than 2x the gRPC list. Env BENCH_PODS changes the count.

import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitSignal, freePort, startNatsServer, waitFor, waitForPort } from '@kubelab/testing';

const PODS = Number(process.env.BENCH_PODS ?? 5000);
const ROUNDS = 5;
const require = createRequire(import.meta.url);
const apiserverDir = join(require.resolve('@kubelab/apiserver'), '..', '..');
const main = join(apiserverDir, 'dist', 'main.js');
// @grpc/grpc-js and the proto loader come through the apiserver's own dependencies.
const grpc = await import(createRequire(join(apiserverDir, 'package.json')).resolve('@grpc/grpc-js'));
const { apiserverProto } = await import(createRequire(join(apiserverDir, 'package.json')).resolve('@kubelab/proto'));

const pod = (i) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: `web-${String(i).padStart(5, '0')}`, namespace: 'bench', labels: { app: 'web', 'pod-template-hash': '5d4f8b7c9' } },
  spec: {
    nodeName: `node-${i % 3}`,
    containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80 }], resources: { requests: { cpu: '100m', memory: '64Mi' } } }],
  },
});

const unary = (client, method, req) => new Promise((resolve, reject) => client[method](req, (e, r) => (e ? reject(e) : resolve(r))));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(rounds, f) {
  const ms = [];
  let bytes = 0;
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    bytes = await f();
    ms.push(performance.now() - t0);
  }
  return { ms: Number(median(ms).toFixed(1)), bytes };
}

const nats = await startNatsServer();
const dir = mkdtempSync(join(tmpdir(), 'kubelab-bench-'));
const securePort = await freePort();
const grpcPort = await freePort();
const child = spawn(process.execPath, [main, `--nats-url=${nats.url}`, '--bind-address=127.0.0.1', `--secure-port=${securePort}`, `--grpc-port=${grpcPort}`, '--advertise-address=127.0.0.1'], {
  stdio: ['ignore', 'ignore', 'pipe'],
  env: { ...process.env, KUBELAB_LOG_LEVEL: 'warn' },
});
const died = exitSignal(child, 'apiserver');
let failed = false;
try {
  await waitForPort(grpcPort, { timeoutMs: 20_000, signal: died });
  await waitFor('the apiserver /readyz', async () => (await fetch(`http://127.0.0.1:${securePort}/readyz`)).status === 200, { timeoutMs: 20_000, everyMs: 50, signal: died });
  const Ctor = apiserverProto().kubelab.apiserver.v1.ResourceService;
  const client = new Ctor(`127.0.0.1:${grpcPort}`, grpc.credentials.createInsecure(), { 'grpc.max_receive_message_length': -1 });
  const PODS_R = { group: '', version: 'v1', resource: 'pods' };
  await unary(client, 'Create', { resource: { group: '', version: 'v1', resource: 'namespaces' }, object: Buffer.from(JSON.stringify({ metadata: { name: 'bench' } })) });
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < PODS) {
        const i = next++;
        await unary(client, 'Create', { resource: PODS_R, namespace: 'bench', object: Buffer.from(JSON.stringify(pod(i))) });
      }
    }),
  );

  const base = `http://127.0.0.1:${securePort}`;
  const rest = (path, accept) => async () => {
    const res = await fetch(base + path, { headers: { accept } });
    const buf = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${buf}`);
    return buf.length;
  };
  // Warm both paths once.
  await unary(client, 'List', { resource: PODS_R });
  await rest('/api/v1/pods', 'application/json')();

  const g = await timed(ROUNDS, async () => (await unary(client, 'List', { resource: PODS_R })).json.length);
  const j = await timed(ROUNDS, rest('/api/v1/pods', 'application/json'));
  const table = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
  const t = await timed(ROUNDS, rest('/api/v1/pods', table));
  client.close();

  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters:\n- name: b\n  cluster: {server: "${base}"}\ncontexts:\n- name: b\n  context: {cluster: b, user: u}\ncurrent-context: b\nusers:\n- name: u\n  user: {}\n`,
  );
  const kubectl = () =>
    new Promise((resolve, reject) =>
      execFile(
        '/usr/bin/kubectl',
        [`--cache-dir=${join(dir, 'cache')}`, '--kubeconfig', kubeconfig, 'get', 'pods', '-A'],
        { maxBuffer: 64 * 1024 * 1024, env: { PATH: process.env.PATH, HOME: dir } },
        (e, out) => (e ? reject(e) : resolve(out)),
      ),
    );
  await kubectl();
  let lines = 0;
  const k = await timed(3, async () => {
    const out = await kubectl();
    lines = out.trim().split('\n').length - 1;
    return Buffer.byteLength(out);
  });

  const ratio = Number((j.ms / g.ms).toFixed(2));
  const results = [
    { bench: 'rest-list-pods', pods: PODS, grpcListMs: g.ms, grpcListBytes: g.bytes, restListMs: j.ms, restListBytes: j.bytes, ratio, target: '<= 2' },
    { bench: 'rest-table-pods', pods: PODS, tableMs: t.ms, tableBytes: t.bytes },
    { bench: 'kubectl-get-pods-A', pods: PODS, rows: lines, wallMs: k.ms, outputBytes: k.bytes },
  ];
  for (const r of results) process.stdout.write(`${JSON.stringify(r)}\n`);
  if (!(ratio <= 2)) {
    process.stderr.write(`REST list took ${ratio}x the gRPC list (target <= 2)\n`);
    failed = true;
  }
  if (lines !== PODS) {
    process.stderr.write(`kubectl get pods -A printed ${lines} rows, expected ${PODS}\n`);
    failed = true;
  }
} finally {
  await new Promise((res) => {
    if (child.exitCode !== null) return res(undefined);
    child.once('exit', () => res(undefined));
    child.kill('SIGTERM');
  });
  await nats.dispose();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

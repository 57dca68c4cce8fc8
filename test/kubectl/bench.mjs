#!/usr/bin/env node
// @ts-check
// REST list benchmark (issue 3): 5,000 pods listed through REST (plain JSON,
// and as the Table `kubectl get pods -A` asks for) against the gRPC List of
// the same apiserver in the same run, plus the wall time of the real
// `kubectl get pods -A`. Prints one JSON line per figure; fails when the REST
// list takes more than 2x the gRPC list. Env BENCH_PODS changes the count.
// The apiserver runs secured as `pnpm kubelab up` runs it (startProcessCluster
// of @kubelab/apiserver/testing: HTTPS, client certificates, Node,RBAC; NATS
// with TLS and users); every path is the admin.conf user (cluster-admin
// through RBAC), kubectl with that kubeconfig.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as https from 'node:https';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProcessCluster } from '@kubelab/apiserver/testing';

const PODS = Number(process.env.BENCH_PODS ?? 5000);
const ROUNDS = 5;
const require = createRequire(import.meta.url);
const apiserverDir = join(require.resolve('@kubelab/apiserver'), '..', '..');
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

const cluster = await startProcessCluster({ nodes: [] });
const apiserver = cluster.apiserver;
const dir = mkdtempSync(join(tmpdir(), 'kubelab-bench-'));
const admin = cluster.adminTls;
let failed = false;
try {
  const Ctor = apiserverProto().kubelab.apiserver.v1.ResourceService;
  const creds = grpc.credentials.createSsl(Buffer.from(admin.caPem), Buffer.from(admin.keyPem), Buffer.from(admin.certPem));
  const client = new Ctor(apiserver.address, creds, { 'grpc.max_receive_message_length': -1 });
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

  // HTTPS with the admin's certificate over one kept-alive connection, as the gRPC channel is kept (the handshake is not the list's cost).
  const agent = new https.Agent({ keepAlive: true, maxSockets: 1, ca: admin.caPem, cert: admin.certPem, key: admin.keyPem });
  const rest = (path, accept) => () =>
    new Promise((resolve, reject) => {
      const req = https.get({ host: '127.0.0.1', port: apiserver.securePort, path, headers: { accept }, agent }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const buf = Buffer.concat(chunks);
          if (res.statusCode !== 200) reject(new Error(`${path}: ${res.statusCode} ${buf}`));
          else resolve(buf.length);
        });
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  // Warm both paths once.
  await unary(client, 'List', { resource: PODS_R });
  await rest('/api/v1/pods', 'application/json')();

  const g = await timed(ROUNDS, async () => (await unary(client, 'List', { resource: PODS_R })).json.length);
  const j = await timed(ROUNDS, rest('/api/v1/pods', 'application/json'));
  const table = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
  const t = await timed(ROUNDS, rest('/api/v1/pods', table));
  client.close();
  agent.destroy();

  // kubeadm's admin.conf: the cluster CA, the apiserver's URL and kubernetes-admin's client certificate.
  const kubeconfig = await cluster.kubeconfig('admin');
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
    {
      bench: 'rest-list-pods',
      security: { ...cluster.security, client: 'kubernetes-admin (admin.conf), RBAC' },
      pods: PODS,
      grpcListMs: g.ms,
      grpcListBytes: g.bytes,
      restListMs: j.ms,
      restListBytes: j.bytes,
      ratio,
      target: '<= 2',
    },
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
  await cluster.dispose();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

// CRI throughput and relist latency over the unix socket; prints JSON lines.
// Bounded: N pods for the lifecycle run, 1,000 containers for the relist.
// The runtime publishes its CRI call records as under `pnpm kubelab up`: to a
// nats-server with TLS and a user per certificate, as kubelab:containerd:bench.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { containerdNatsIdentity } from '@kubelab/nats';
import { startSecureNatsServer } from '@kubelab/nats/testing';
import { endProcesses, exitSignal, waitFor } from '@kubelab/testing';
import { criClient, sandboxConfig, containerConfig } from '../dist/testing/harness.js';
import { hostDir } from '../dist/shim/paths.js';

const PODS = Number(process.env.BENCH_PODS ?? 300);
const CONTAINERS = Number(process.env.BENCH_CONTAINERS ?? 1000);
const RELISTS = Number(process.env.BENCH_RELISTS ?? 200);

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const r3 = (n) => Math.round(n * 1000) / 1000;

const dir = mkdtempSync(join(tmpdir(), 'kubelab-cri-bench-'));
const nats = await startSecureNatsServer({ nodes: ['bench'] });
const natsTls = await nats.clientTls(containerdNatsIdentity('bench'));
const tlsFiles = { ca: join(dir, 'nats-ca.crt'), cert: join(dir, 'nats-client.crt'), key: join(dir, 'nats-client.key') };
writeFileSync(tlsFiles.ca, natsTls.caPem);
writeFileSync(tlsFiles.cert, natsTls.certPem ?? '');
writeFileSync(tlsFiles.key, natsTls.keyPem ?? '', { mode: 0o600 });
// The runtime runs as its own process, as it does beside a kubelet.
const socketPath = join(dir, 'containerd.sock');
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const child = spawn(
  process.execPath,
  [
    ...[main, '--node-name', 'bench', '--address', socketPath, '--root', join(dir, 'root'), '--health-port', '0', '--pull-speed', '0', '--pod-cidr', '10.244.0.0/16', '--v', 'error'],
    ...['--nats-url', nats.url, '--nats-ca-file', tlsFiles.ca, '--nats-cert-file', tlsFiles.cert, '--nats-key-file', tlsFiles.key],
  ],
  { stdio: ['ignore', 'ignore', 'inherit'] },
);
let cri;
try {
  // It connects to NATS (TLS) before it serves: allow for a loaded machine.
  await waitFor('the containerd socket', () => existsSync(socketPath), { timeoutMs: 30_000, everyMs: 25, signal: exitSignal(child, 'containerd') });
  cri = criClient(socketPath);
  await cri.img.PullImage({ image: { image: 'busybox:1.36' } });
  const lat = [];
  const t0 = performance.now();
  for (let i = 0; i < Math.max(PODS, CONTAINERS); i++) {
    const s = performance.now();
    const cfg = sandboxConfig(`pod-${i}`, dir);
    const { podSandboxId } = await cri.rt.RunPodSandbox({ config: cfg });
    const { containerId } = await cri.rt.CreateContainer({ podSandboxId, config: containerConfig('app', 'busybox:1.36', { command: ['sleep', '3600'], logPath: '' }), sandboxConfig: cfg });
    await cri.rt.StartContainer({ containerId });
    if (i < PODS) lat.push(performance.now() - s);
    if (i === PODS - 1) {
      const secs = (performance.now() - t0) / 1000;
      console.log(JSON.stringify({ bench: 'RunPodSandbox+CreateContainer+StartContainer', pods: PODS, podsPerSecond: r3(PODS / secs), p50Ms: r3(pct(lat, 50)), p99Ms: r3(pct(lat, 99)) }));
    }
  }
  // Steady state, as the kubelet's relist every second sees it: warm up first.
  for (let i = 0; i < 20; i++) await cri.rt.ListContainers({});
  const list = [];
  let count = 0;
  for (let i = 0; i < RELISTS; i++) {
    const s = performance.now();
    const res = await cri.rt.ListContainers({});
    list.push(performance.now() - s);
    count = res.containers.length;
  }
  console.log(JSON.stringify({ bench: 'ListContainers', containers: count, calls: RELISTS, p50Ms: r3(pct(list, 50)), p99Ms: r3(pct(list, 99)), targetP99Ms: 20, ok: pct(list, 99) < 20 }));
  const sb = [];
  for (let i = 0; i < 50; i++) {
    const s = performance.now();
    await cri.rt.ListPodSandbox({});
    sb.push(performance.now() - s);
  }
  console.log(JSON.stringify({ bench: 'ListPodSandbox', sandboxes: CONTAINERS, calls: 50, p50Ms: r3(pct(sb, 50)), p99Ms: r3(pct(sb, 99)) }));
} finally {
  cri?.close();
  await new Promise((r) => {
    if (child.exitCode !== null || child.signalCode !== null) return r(undefined);
    child.once('exit', r);
    child.kill('SIGTERM');
  });
  // The shim host outlives containerd by design (upstream's shims do); left running, it kept 1,000 `sleep 3600` containers for an hour.
  await endProcesses(shimHostPids(dirname(socketPath)));
  await nats.dispose();
  rmSync(dir, { recursive: true, force: true });
}

/** The node's shim host (its pid file), or none when no sandbox was started. */
function shimHostPids(stateDir) {
  try {
    return [Number(readFileSync(join(hostDir(stateDir), 'shim.pid'), 'utf8'))];
  } catch {
    return [];
  }
}

// The runtime's memory per idle container and per running server (issue 23):
// the runtime runs in this process (the in-process harness); heap and RSS are
// read after a full GC before and after starting IDLE busybox pods
// (`sleep 3600`) and SERVERS redis pods (redis-server on :6379). Prints JSON lines.
// Needs --expose-gc (the bench script passes it).
import { startHarness } from '../dist/testing/harness.js';

const IDLE = Number(process.env.BENCH_IDLE_PODS ?? 200);
const SERVERS = Number(process.env.BENCH_SERVERS ?? 20);
const KiB = 1024;

const settle = async () => {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 200));
    globalThis.gc?.();
  }
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss, external: m.external + m.arrayBuffers };
};
const per = (a, b, n) => Math.round((b - a) / n / KiB);

if (!globalThis.gc) console.error('memory bench: run with --expose-gc for stable figures');
const h = await startHarness({ timeScale: 1, podCidr: '10.244.0.0/16' });
try {
  await h.cri.img.PullImage({ image: { image: 'busybox:1.36' } });
  await h.cri.img.PullImage({ image: { image: 'redis:7.4' } });
  // One of each first: code loaded once (modules, the interpreter's commands) is not a container's cost.
  await h.runPod('warm-idle', 'busybox:1.36', { command: ['sleep', '3600'] });
  await h.runPod('warm-redis', 'redis:7.4');
  const base = await settle();
  for (let i = 0; i < IDLE; i++) await h.runPod(`idle-${i}`, 'busybox:1.36', { command: ['sleep', '3600'] });
  const idle = await settle();
  console.log(
    JSON.stringify({
      bench: 'memory per idle container (busybox sleep, pod sandbox included)',
      pods: IDLE,
      heapKiBPerPod: per(base.heap, idle.heap, IDLE),
      rssKiBPerPod: per(base.rss, idle.rss, IDLE),
      externalKiBPerPod: per(base.external, idle.external, IDLE),
    }),
  );
  for (let i = 0; i < SERVERS; i++) await h.runPod(`redis-${i}`, 'redis:7.4');
  const servers = await settle();
  console.log(
    JSON.stringify({
      bench: 'memory per running server (redis-server, pod sandbox included)',
      pods: SERVERS,
      heapKiBPerPod: per(idle.heap, servers.heap, SERVERS),
      rssKiBPerPod: per(idle.rss, servers.rss, SERVERS),
      externalKiBPerPod: per(idle.external, servers.external, SERVERS),
    }),
  );
} finally {
  await h.dispose();
}

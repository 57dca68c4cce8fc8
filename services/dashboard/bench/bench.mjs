// `pnpm --filter @kubelab/dashboard bench`: the dashboard at 1,000 CRI records
// a second. A real nats-server, the built dashboard process (NATS only, no
// apiserver), Debian's Chromium on the message-flow view; a publisher sends
// records shaped like the runtime's for DURATION_S. Reported: the page's frame
// time (requestAnimationFrame intervals) p50/p95/max, the records the page
// received, and the dashboard process's peak resident memory. Fails when the
// frame time p95 reaches 50 ms or the process 150 MiB.
//   BENCH_RATE=1000 BENCH_SECONDS=20 BENCH_VIEW=flow pnpm --filter @kubelab/dashboard bench

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { connect } from '@nats-io/transport-node';
import { chromium } from 'playwright-core';
/* global window */ // page.evaluate bodies run in the page.

const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const FRAME_P95_LIMIT_MS = 50;
const RSS_LIMIT_MIB = 150;
const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitHttp(url, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await sleep(100);
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

function rssMiB(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

const METHODS = ['RunPodSandbox', 'PullImage', 'CreateContainer', 'StartContainer', 'ContainerStatus', 'ListContainers', 'StopContainer', 'ExecSync'];
function record(i) {
  const node = `node-${(i % 3) + 1}`;
  const pod = `web-${i % 50}`;
  const method = METHODS[i % METHODS.length];
  return JSON.stringify({
    time: new Date().toISOString(),
    node,
    service: 'RuntimeService',
    method,
    podName: pod,
    podNamespace: 'default',
    containerName: 'nginx',
    request: { image: { image: 'nginx' } },
    durationMs: (i % 17) / 3,
    code: 'OK',
    codeNumber: 0,
    traceId: `${i}`.padStart(32, '0'),
    spanId: `${i}`.padStart(16, '0'),
  });
}

const children = [];
const stopAll = () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
};
process.on('exit', stopAll);

async function main() {
  const natsPort = await freePort();
  const webPort = await freePort();
  const nats = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(natsPort)], { stdio: 'ignore' });
  children.push(nats);
  await sleep(500);
  const dash = spawn(process.execPath, [MAIN, '--watch=false', `--nats-url=nats://127.0.0.1:${natsPort}`, `--port=${webPort}`], { stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(dash);
  const url = `http://127.0.0.1:${webPort}/`;
  await waitHttp(`${url}healthz`, 20_000);

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(url);
  await page.waitForSelector('#conn:text("live")');
  await page.click(`nav button[data-view=${process.env.BENCH_VIEW ?? 'flow'}]`);
  await page.waitForTimeout(1000);

  const nc = await connect({ servers: `nats://127.0.0.1:${natsPort}` });
  await page.evaluate(() => window.__kubelab.frames.splice(0));
  let peakRss = rssMiB(dash.pid);
  const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, rssMiB(dash.pid))), 250);
  const started = Date.now();
  let sent = 0;
  // Paced in 10 ms ticks, catching up to the schedule after a late tick.
  while (Date.now() - started < SECONDS * 1000) {
    const due = Math.floor(((Date.now() - started) / 1000) * RATE);
    for (; sent < due; sent++) {
      const i = sent;
      const node = `node-${(i % 3) + 1}`;
      nc.publish(`kubelab.cri.${node}.${METHODS[i % METHODS.length]}`, record(i));
    }
    await sleep(10);
  }
  await nc.flush();
  await sleep(1000);
  clearInterval(rssTimer);
  peakRss = Math.max(peakRss, rssMiB(dash.pid));
  const { frames, received } = await page.evaluate(() => ({ frames: window.__kubelab.frames.slice(), received: window.__kubelab.received() }));
  await browser.close();
  await nc.close();
  stopAll();

  const result = {
    rate: RATE,
    seconds: SECONDS,
    sent,
    received,
    frames: frames.length,
    frameP50Ms: Number(pct(frames, 50).toFixed(1)),
    frameP95Ms: Number(pct(frames, 95).toFixed(1)),
    frameMaxMs: Number(Math.max(...frames).toFixed(1)),
    dashboardPeakRssMiB: Number(peakRss.toFixed(1)),
  };
  console.log(JSON.stringify(result));
  console.log(
    `dashboard at ${RATE} msg/s for ${SECONDS}s: page received ${received}/${sent}; frame time p50 ${result.frameP50Ms} ms, p95 ${result.frameP95Ms} ms (limit ${FRAME_P95_LIMIT_MS}), max ${result.frameMaxMs} ms; dashboard process peak RSS ${result.dashboardPeakRssMiB} MiB (limit ${RSS_LIMIT_MIB})`,
  );
  if (result.frameP95Ms >= FRAME_P95_LIMIT_MS || result.dashboardPeakRssMiB >= RSS_LIMIT_MIB) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  stopAll();
  process.exit(1);
});

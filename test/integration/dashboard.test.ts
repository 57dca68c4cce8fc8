// The dashboard as a learner sees it, in Debian's Chromium driven by
// playwright-core (no browser download), against `kubelab up` with the real
// binaries: the map shows the nodes Ready; after `kubectl create deployment`
// the pod's story shows RunPodSandbox → CreateContainer → StartContainer in
// order; a scale from the Actions view appears in the flow; a killed kubelet
// turns its node grey, then NotReady. From the Actions view: the kubelet
// stopped and started (grey with the NotReady countdown, NotReady, the
// unreachable taint with each pod's eviction countdown, Ready again) and a
// fault injected (its node condition on the map), each in the flow.
// Screenshots of each view go to test/artifacts/dashboard/ (gitignored).

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT_CONTEXT, SpanKind, trace, TraceFlags } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { setupTestTracing } from '@kubelab/tracing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool, waitFor } from '@kubelab/testing';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RUNNER = join(ROOT, 'packages/kubelab/dist/main.js');
const ARTIFACTS = join(ROOT, 'test/artifacts/dashboard');
const CHROMIUM = '/usr/bin/chromium';
const KUBECTL = '/usr/bin/kubectl';
const OFFSET = 23600;
const DASHBOARD = `http://127.0.0.1:${9090 + OFFSET}/`;

const ready = requireTool('nats-server') && requireTool('kubectl') && existsSync(CHROMIUM);

describe.runIf(ready)('the dashboard in a browser against kubelab up', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelab-dashboard-'));
  let runner: ChildProcess;
  let output = '';
  let browser: Browser;
  let page: Page;

  const kubectl = (args: string[]) =>
    new Promise<{ stdout: string; stderr: string; code: number }>((resolve) => {
      execFile(KUBECTL, ['--kubeconfig', join(dir, 'kubeconfig'), '--cache-dir', join(dir, 'kcache'), ...args], { timeout: 30_000 }, (err, stdout, stderr) =>
        resolve({ stdout, stderr, code: err ? ((err as { code?: number }).code ?? 1) : 0 }),
      );
    });
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  const view = async (name: 'map' | 'flow' | 'story' | 'actions' | 'sched') => page.click(`nav button[data-view=${name}]`);

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    runner = spawn(
      process.execPath,
      [RUNNER, 'up', '--nodes', '1', '--state-dir', dir, '--port-offset', String(OFFSET), '--node-monitor-grace-period=12s', '--node-monitor-period=1s', '--node-lease-duration-seconds=4'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    runner.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    runner.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    // Two nodes' units and the control plane on a shared two-core machine: the deadline is generous, not the expectation.
    // A runner that gives up (a unit not healthy in time) ends the wait at once.
    const exited = new Promise<never>((_resolve, reject) => runner.once('exit', (code, signal) => reject(new Error(`kubelab up exited (${signal ?? `code ${code}`})`))));
    exited.catch(() => {});
    await Promise.race([waitFor('cluster ready', async () => (output.includes('cluster ready') ? true : undefined), { timeoutMs: 360_000 }), exited]).catch((e: Error) => {
      throw new Error(`${e.message}; the runner printed:\n${output.slice(-3000)}`);
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(DASHBOARD);
  }, 420_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    if (runner && runner.exitCode === null) {
      runner.kill('SIGTERM');
      await new Promise((r) => runner.once('exit', r));
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints its URL at cluster ready', () => {
    expect(output).toMatch(new RegExp(`^cluster ready\\n  export KUBECONFIG=.*\\n  kubectl get nodes\\n  dashboard: ${DASHBOARD.replace(/[.]/g, '\\.')}$`, 'm'));
  });

  it('shows the control plane, NATS and every node Ready on the map', async () => {
    await page.waitForSelector('[data-testid=connection]:text("live")');
    for (const c of ['apiserver', 'nats', 'scheduler', 'controller-manager']) await page.waitForSelector(`[data-testid=component-${c}][data-state=up]`);
    for (const n of ['control-plane', 'node-1']) {
      const box = await page.waitForSelector(`[data-testid=node-${n}][data-state=ready]`);
      expect(await box.textContent()).toContain('Ready');
      expect(await box.textContent()).toMatch(/kubelet · \d+s ago/);
    }
    await shot('1-map');
  });

  it("after kubectl create deployment, the pod's story shows RunPodSandbox → CreateContainer → StartContainer in order", async () => {
    expect((await kubectl(['create', 'deployment', 'story', '--image=nginx'])).stdout).toBe('deployment.apps/story created\n');
    const pod = await waitFor(
      'the deployment pod Running',
      async () => {
        const r = await kubectl(['get', 'pods', '-l', 'app=story', '-o', 'jsonpath={range .items[*]}{.metadata.name} {.status.phase}{"\\n"}{end}']);
        const line = r.stdout.split('\n').find((l) => l.endsWith(' Running'));
        return line?.split(' ')[0];
      },
      { timeoutMs: 60_000 },
    );
    await view('story');
    await page.selectOption('[data-testid=story-pod]', `default/${pod}`);
    const methods = await waitFor(
      'the story to hold the CRI calls',
      async () => {
        const ms = await page.$$eval('[data-testid=story-step]', (els) => els.map((e) => e.getAttribute('data-method') ?? ''));
        // The Scheduled Event is written by the scheduler's event broadcaster, possibly after the kubelet's calls arrive.
        return ms.includes('StartContainer') && ms.includes('Scheduled') ? ms : undefined;
      },
      { timeoutMs: 30_000 },
    );
    const cri = methods.filter((m) => ['RunPodSandbox', 'CreateContainer', 'StartContainer'].includes(m));
    expect(cri).toEqual(['RunPodSandbox', 'CreateContainer', 'StartContainer']);
    // The scheduler's decision comes before the kubelet's first call.
    expect(methods.indexOf('Scheduled')).toBeGreaterThanOrEqual(0);
    expect(methods.indexOf('Scheduled')).toBeLessThan(methods.indexOf('RunPodSandbox'));
    const steps = await page.$$eval('[data-testid=story-step]', (els) => els.map((e) => e.textContent ?? ''));
    expect(steps.find((s) => s.includes('RunPodSandbox'))).toMatch(/^\+\s*\d+ms {2}kubelet\(([\w-]+)\) → containerd\(\1\) {2}RunPodSandbox {2}\d+\.\dms/);
    await shot('3-story');
  });

  it('scales a Deployment from the Actions view, and the request shows in the flow', async () => {
    await view('actions');
    await page.waitForSelector('#scale-deployment option[value="default/story"]', { state: 'attached' });
    await page.selectOption('#scale-deployment', 'default/story');
    await page.fill('#scale-replicas', '2');
    await page.click('#scale-form button');
    await page.waitForSelector('[data-testid=action-result]:text("deployment.apps/story scaled")');
    await shot('5-actions');
    expect((await kubectl(['get', 'deployment', 'story', '-o', 'jsonpath={.spec.replicas}'])).stdout).toBe('2');
    await view('flow');
    await page.fill('#f-object', 'default/story');
    // The list reuses its rows as messages arrive (the informer events about the story pods among them): read the texts at once.
    const row = await waitFor(
      'the scale in the flow',
      async () => (await page.$$eval('[data-testid=flow-list] li.action', (els) => els.map((e) => e.textContent ?? ''))).find((t) => t.includes('patch deployments')),
      { timeoutMs: 30_000 },
    );
    expect(row).toMatch(/dashboard → apiserver {2}patch deployments {2}Deployment default\/story {2}spec\.replicas=2/);
    await page.fill('#f-object', '');
    // kube-proxy's rules syncs (kubelab.proxy.<node>), filtered by component: the local runner's data path is the socket-LB map.
    await page.waitForSelector('#f-component option[value="kube-proxy"]', { state: 'attached', timeout: 30_000 });
    await page.selectOption('#f-component', 'kube-proxy');
    const sync = await waitFor(
      'a kube-proxy sync in the flow',
      async () => (await page.$$eval('[data-testid=flow-list] li.proxy', (els) => els.map((e) => e.textContent ?? ''))).find((t) => t.includes(' sync ')),
      { timeoutMs: 30_000 },
    );
    expect(sync).toMatch(/kube-proxy\(([\w-]+)\) → socket-lb\(\1\) {2}sync {2}.*\d+ services?, \d+ endpoints?, \d+ rules?, (full|partial)/);
    await page.selectOption('#f-component', '');
    await shot('2-flow');
  });

  it("the Scheduling view shows, for a pod only one node fits, the other node's Filter reason and the chosen node", async () => {
    // It tolerates the control-plane taint and selects that node by name: node-1 fails NodeAffinity, the control-plane node is chosen without scoring.
    const overrides = {
      spec: {
        nodeSelector: { 'kubernetes.io/hostname': 'control-plane' },
        tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
      },
    };
    expect((await kubectl(['run', 'picky', '--image=nginx', `--overrides=${JSON.stringify(overrides)}`])).stdout).toBe('pod/picky created\n');
    await view('sched');
    await page.waitForSelector('[data-testid=sched-pod] option[value="default/picky"]', { state: 'attached', timeout: 30_000 });
    await page.selectOption('[data-testid=sched-pod]', 'default/picky');
    const summary = await page.waitForSelector('[data-testid=sched-summary]:text("default/picky → control-plane")');
    expect(await summary.textContent()).toBe('default/picky → control-plane: 1 of 2 node(s) feasible');
    const chosen = await page.waitForSelector('[data-testid=sched-filter] tr.chosen');
    expect(await chosen.getAttribute('data-node')).toBe('control-plane');
    const other = await page.$$eval('[data-testid=sched-filter] tr[data-node=node-1] td', (tds) => tds.map((td) => td.textContent ?? ''));
    expect(other).toContain("node(s) didn't match Pod's node affinity/selector");
    expect(await page.textContent('[data-testid=sched-score-note]')).toBe('One feasible node (control-plane): chosen without scoring, as upstream does.');
    expect(await page.textContent('[data-testid=sched-recent]')).toMatch(/default\/picky {2}→ control-plane/);
    await shot('4-scheduling');
  });

  it('the Scheduling view scores a pod two nodes fit, and the decision is a step of its story', async () => {
    const overrides = { spec: { tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }] } };
    expect((await kubectl(['run', 'either', '--image=nginx', `--overrides=${JSON.stringify(overrides)}`])).stdout).toBe('pod/either created\n');
    await view('sched');
    await page.waitForSelector('[data-testid=sched-pod] option[value="default/either"]', { state: 'attached', timeout: 30_000 });
    await page.selectOption('[data-testid=sched-pod]', 'default/either');
    await page.waitForSelector('[data-testid=sched-summary]:text("2 of 2 node(s) feasible")');
    const plugins = await page.$$eval('[data-testid=sched-score] tr th:first-child', (ths) => ths.map((th) => th.textContent ?? ''));
    expect(plugins).toEqual(['plugin (weight)', 'TaintToleration (3)', 'NodeAffinity (2)', 'NodeResourcesFit (1)', 'NodeResourcesBalancedAllocation (1)', 'total']);
    const chosen = await page.textContent('[data-testid=sched-score] th.chosen');
    const bound = (await kubectl(['get', 'pod', 'either', '-o', 'jsonpath={.spec.nodeName}'])).stdout;
    expect(chosen).toBe(`${bound} ★`);
    await shot('4-scheduling-scores');
    await view('story');
    await page.selectOption('[data-testid=story-pod]', 'default/either');
    await page.waitForSelector('[data-testid=story-step][data-method="Filter/Score"]');
  });

  it('a killed kubelet turns its node grey, then NotReady', async () => {
    await view('map');
    const pid = Number(readFileSync(join(dir, 'run', 'kubelet-1.pid'), 'utf8').trim());
    process.kill(pid, 'SIGKILL');
    await page.waitForSelector('[data-testid=node-node-1][data-state=stale]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid=node-node-1]')).toMatch(/heartbeat late.*NotReady in ~\d+s/s);
    await shot('1-map-kubelet-killed');
    await page.waitForSelector('[data-testid=node-node-1][data-state=notready]', { timeout: 60_000 });
    expect(await page.textContent('[data-testid=node-node-1] h3')).toContain('NotReady');
    await shot('1-map-node-notready');
  });

  it("takes an OTLP/HTTP protobuf export into the pod's trace: the story links to it and the Traces view draws its waterfall; garbage gets 400", async () => {
    // A story pod's RunPodSandbox, as the dashboard saw it: the runtime's record carries the pod start's trace id.
    const flow = (await (await fetch(`${DASHBOARD}api/flow`)).json()) as { items: { kind: string; from: string; to: string; method: string; name?: string; traceId?: string }[] };
    const run = flow.items.find((m) => m.kind === 'cri' && m.method === 'RunPodSandbox' && m.name?.startsWith('story-') && m.traceId);
    expect(run).toBeDefined();
    const pod = run!.name!;
    // The informer events that reached the components about it, from the apiserver's watch delivery records.
    const informers = flow.items.filter((m) => m.kind === 'watch' && m.name === pod && m.from === 'apiserver' && m.to !== 'dashboard');
    expect(informers.map((m) => `${m.to} ${m.method}`)).toEqual(expect.arrayContaining(['scheduler ADDED', 'controller-manager ADDED', 'kubelet(node-1) ADDED']));
    // The spans a kubelet exporting to this trace would send, encoded by the OTLP encoder the components' exporter uses.
    const t = setupTestTracing('kubelet', { node: 'node-1', contextPropagation: 'sync' });
    const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId: run!.traceId!, spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED, isRemote: true });
    await t.tracing.withSpan(
      `syncPod default/${pod}`,
      async (sync) => {
        for (const m of ['RunPodSandbox', 'CreateContainer', 'StartContainer']) {
          const s = t.tracing.tracer.startSpan(`runtime.v1.RuntimeService/${m}`, { kind: SpanKind.CLIENT, attributes: { 'rpc.method': m } }, trace.setSpan(ROOT_CONTEXT, sync));
          await new Promise((r) => setTimeout(r, 2));
          s.end();
        }
      },
      { parent, attributes: { 'k8s.pod.name': pod } },
    );
    const body = ProtobufTraceSerializer.serializeRequest(t.spans())!;
    await t.tracing.shutdown();
    const ok = await fetch(`${DASHBOARD}v1/traces`, { method: 'POST', headers: { 'content-type': 'application/x-protobuf' }, body: Buffer.from(body) });
    expect([ok.status, ok.headers.get('content-type')]).toEqual([200, 'application/x-protobuf']);
    const bad = await fetch(`${DASHBOARD}v1/traces`, { method: 'POST', headers: { 'content-type': 'application/x-protobuf' }, body: 'this is not protobuf' });
    expect(bad.status).toBe(400);
    expect(Buffer.from(await bad.arrayBuffer()).toString('latin1')).toContain('cannot decode the body as an ExportTraceServiceRequest');
    const badJson = await fetch(`${DASHBOARD}v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"resourceSpans": 1}' });
    expect([badJson.status, await badJson.json()]).toEqual([400, { code: 3, message: 'resourceSpans: an array is required' }]);

    await view('story');
    await page.selectOption('[data-testid=story-pod]', `default/${pod}`);
    const link = await page.waitForSelector('[data-testid=story-trace-link]', { timeout: 30_000 });
    expect(await link.textContent()).toMatch(new RegExp(`^trace ${run!.traceId!.slice(0, 8)}… \\(4 spans, `));
    await link.click();
    await page.waitForSelector('[data-testid=waterfall-span][data-name="runtime.v1.RuntimeService/StartContainer"]');
    const rows = await page.$$eval('[data-testid=waterfall-span]', (els) => els.map((e) => `${e.getAttribute('data-service')} ${e.getAttribute('data-name')}`));
    expect(rows).toEqual([
      `kubelet syncPod default/${pod}`,
      'kubelet runtime.v1.RuntimeService/RunPodSandbox',
      'kubelet runtime.v1.RuntimeService/CreateContainer',
      'kubelet runtime.v1.RuntimeService/StartContainer',
    ]);
    expect(await page.textContent(`[data-testid=trace-row][data-trace-id="${run!.traceId}"]`)).toContain(`syncPod default/${pod}`);
    await page.click('[data-testid=waterfall-span][data-name="runtime.v1.RuntimeService/CreateContainer"]');
    expect(await page.textContent('[data-testid=span-detail]')).toMatch(/kubelet · runtime\.v1\.RuntimeService\/CreateContainer.*kindCLIENT.*rpc\.methodCreateContainer/s);
    await page.screenshot({ path: join(ARTIFACTS, '6-traces.png'), fullPage: true });
  });

  // ---- stop, start and fault from the Actions view (over NATS to the node's agent, here the runner) ----
  describe('stop, start and fault from the Actions view', () => {
    const control = async (action: 'stop' | 'start', unit: string, node = 'node-1') => {
      await view('actions');
      await page.waitForSelector(`#component-node option[value="${node}"]`, { state: 'attached' });
      await page.waitForSelector(`#component-unit option[value="${unit}"]`, { state: 'attached' });
      await page.selectOption('#component-node', node);
      await page.selectOption('#component-unit', unit);
      await page.click(`#component-${action}`);
      await page.waitForSelector(`[data-testid=action-result]:text("${node}: systemctl ${action} ${unit} done")`, { timeout: 30_000 });
    };
    const flowHas = async (method: string, node = 'node-1') => {
      await view('flow');
      await page.fill('#f-object', node);
      const rows = await waitFor(
        `the flow to show ${method}`,
        async () => {
          const texts = await page.$$eval('[data-testid=flow-list] li.action', (els) => els.map((e) => e.textContent ?? ''));
          return texts.some((t) => t.includes(method)) ? texts : undefined;
        },
        { timeoutMs: 10_000 },
      );
      await page.fill('#f-object', '');
      return rows.find((t) => t.includes(method))!;
    };
    const storyPod = async () => {
      const r = await kubectl(['get', 'pods', '-l', 'app=story', '--field-selector', 'spec.nodeName=node-1', '-o', 'jsonpath={.items[0].metadata.name}']);
      return r.stdout.trim();
    };

    it('starts the kubelet again from the page: the node turns Ready, and the start shows in the flow', async () => {
      await control('start', 'kubelet');
      await view('map');
      await page.waitForSelector('[data-testid=node-node-1][data-state=ready]', { timeout: 60_000 });
      expect(await flowHas('systemctl start kubelet')).toMatch(/dashboard → systemd\(node-1\) {2}systemctl start kubelet {2}Node node-1 {2}via NATS kubelab\.control\.node-1/);
    });

    it("stops the kubelet from the page: grey with the NotReady countdown, then NotReady with the unreachable taint and each pod's eviction countdown", async () => {
      const pod = await storyPod();
      expect(pod).not.toBe('');
      await control('stop', 'kubelet');
      await view('map');
      const countdown = await page.waitForSelector('[data-testid=node-node-1][data-state=stale] [data-testid=notready-countdown]', { timeout: 30_000 });
      expect(await countdown.textContent()).toMatch(/^NotReady (in ~\d+s|due now) \(node-monitor-grace-period 12s( passed)?\)$/);
      await shot('1-map-kubelet-stopped');
      await page.waitForSelector('[data-testid=node-node-1][data-state=notready]', { timeout: 60_000 });
      const taints = await page.waitForSelector('[data-testid=node-node-1] [data-testid=node-taints]:has-text("node.kubernetes.io/unreachable:NoExecute")', { timeout: 30_000 });
      expect(await taints.textContent()).toMatch(/node\.kubernetes\.io\/unreachable:NoExecute \(\d+s ago\)/);
      // The DefaultTolerationSeconds admission gave the pod 300 s for the unreachable taint.
      const chip = await page.waitForSelector(`[data-testid=pod-default-${pod}]:has-text("evicted in")`, { timeout: 10_000 });
      expect(await chip.textContent()).toMatch(/evicted in (\d+)s \(node\.kubernetes\.io\/unreachable:NoExecute, tolerationSeconds=300\)/);
      const left = Number(/evicted in (\d+)s/.exec((await chip.textContent()) ?? '')![1]);
      expect(left).toBeGreaterThan(200);
      expect(left).toBeLessThanOrEqual(300);
      await shot('1-map-taint-eviction-countdown');
      expect(await flowHas('systemctl stop kubelet')).toContain('dashboard → systemd(node-1)  systemctl stop kubelet  Node node-1');
    });

    it('starts it again from the page: Ready, the taint and the countdowns gone', async () => {
      await control('start', 'kubelet');
      await view('map');
      await page.waitForSelector('[data-testid=node-node-1][data-state=ready]', { timeout: 60_000 });
      await page.waitForSelector('[data-testid=node-node-1] .eviction', { state: 'detached', timeout: 30_000 });
      expect(await page.textContent('[data-testid=node-node-1]')).not.toContain('node.kubernetes.io/unreachable');
    });

    it("injects a fault from the page: the node's condition appears on the map, and the fault in the flow", async () => {
      await view('actions');
      await page.waitForSelector('#fault-node option[value="node-1"]', { state: 'attached' });
      await page.selectOption('#fault-node', 'node-1');
      await page.selectOption('#fault-name', 'kernel-deadlock');
      expect(await page.textContent('#fault-see')).toContain('KernelDeadlock True (DockerHung)');
      await page.click('#fault-inject');
      await page.waitForSelector('[data-testid=action-result]:text("node-1: kernel-deadlock injected")', { timeout: 30_000 });
      await shot('5-actions-fault');
      await view('map');
      // (Other conditions may be True already: the NPD's KubeletUnhealthy after the stopped kubelet, until its next check.)
      const problems = await page.waitForSelector('[data-testid=node-node-1] [data-testid=node-problems]:has-text("KernelDeadlock")', { timeout: 60_000 });
      expect(await problems.textContent()).toContain('KernelDeadlock (DockerHung)');
      await shot('1-map-fault');
      expect(await flowHas('node-fault kernel-deadlock')).toContain(
        'dashboard → node(node-1)  node-fault kernel-deadlock  Node node-1  via NATS kubelab.control.node-1: node-1: kernel-deadlock injected',
      );
      const node = await kubectl(['get', 'node', 'node-1', '-o', 'jsonpath={.status.conditions[?(@.type=="KernelDeadlock")].status}']);
      expect(node.stdout).toBe('True');
    });

    it('stops the scheduler from the page: a new pod stays unscheduled until it is started again', async () => {
      await view('actions');
      await page.waitForSelector('#component-node option[value="control-plane"]', { state: 'attached' });
      await page.selectOption('#component-node', 'control-plane');
      await page.selectOption('#component-unit', 'kube-scheduler');
      await page.click('#component-stop');
      await page.waitForSelector('[data-testid=action-result]:text("control-plane: stop kube-scheduler (static pod) done")', { timeout: 30_000 });
      expect((await kubectl(['run', 'waits', '--image=nginx'])).stdout).toBe('pod/waits created\n');
      await view('map');
      // Pods with no node show in the map's "unscheduled" box, namespace included.
      await page.waitForSelector('.pod.Pending:text-is("default/waits")', { timeout: 10_000 });
      await new Promise((r) => setTimeout(r, 3000));
      expect((await kubectl(['get', 'pod', 'waits', '-o', 'jsonpath={.spec.nodeName}'])).stdout).toBe('');
      await view('actions');
      await page.click('#component-start');
      await page.waitForSelector('[data-testid=action-result]:text("control-plane: start kube-scheduler (static pod) done")', { timeout: 60_000 });
      await waitFor('the pod scheduled', async () => (await kubectl(['get', 'pod', 'waits', '-o', 'jsonpath={.spec.nodeName}'])).stdout || undefined, { timeoutMs: 60_000 });
      expect(await flowHas('stop kube-scheduler', 'control-plane')).toContain('dashboard → node(control-plane)  stop kube-scheduler (static pod)');
    });

    it('answers bad input with a metav1.Status', async () => {
      const r = await page.evaluate(async () => {
        const res = await fetch('api/actions/stop', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ node: 'node-1', unit: 'sshd' }) });
        return { code: res.status, body: (await res.json()) as { kind: string; reason: string; message: string } };
      });
      expect(r.code).toBe(400);
      expect(r.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: expect.stringContaining('unit: one of kubelet, containerd, kube-proxy') });
    });
  });
});

// `kubelab trace` against a real nats-server and the real mock containerd: a pod
// start through the CRI client shows up as the expected ordered lines, in
// --json from the `kubelab trace` binary and as text in-process.
// Here rather than in packages/kubelab: it needs a runtime, and a package never depends on a service.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { connect } from '@nats-io/transport-node';
import { containerConfig, sandboxConfig, startHarness, type Harness } from '@kubelab/containerd/testing';
import { freePort, requireTool, startNatsServer, waitFor, type NatsServerHandle } from '@kubelab/testing';
import { formatDurationMs, runTrace, type TraceIo } from '@kubelab/kubelab';
import { criSubject } from '@kubelab/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../../packages/kubelab/dist/main.js', import.meta.url));

interface Viewer {
  lines: string[];
  notes: string[];
  done: Promise<number>;
  stop(): Promise<number>;
}

/** runTrace in-process, collecting what it prints. */
function inProcess(natsUrl: string, filter: Partial<Parameters<typeof runTrace>[0]['filter']> = {}, extra: { json?: boolean; since?: Date } = {}): Viewer {
  const ac = new AbortController();
  const v: Viewer = { lines: [], notes: [], done: Promise.resolve(0), stop: async () => (ac.abort(), v.done) };
  const io: TraceIo = { out: (l) => v.lines.push(l), note: (l) => v.notes.push(l), color: false, utc: true, signal: ac.signal, hiddenEveryMs: 3_600_000 };
  v.done = runTrace({ filter: { nodes: [], methods: [], all: false, ...filter }, json: extra.json ?? false, natsUrl, ...(extra.since ? { since: extra.since } : {}) }, io);
  return v;
}

/** The real CLI as users run it: `node packages/kubelab/dist/main.js trace ...`. */
function cli(args: string[]): Viewer & { child: ChildProcess } {
  const child = spawn(process.execPath, [MAIN, 'trace', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  const v = { lines: [] as string[], notes: [] as string[], child } as Viewer & { child: ChildProcess };
  const split = (into: string[]) => {
    let buf = '';
    return (d: Buffer) => {
      buf += d.toString();
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        into.push(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
      }
    };
  };
  child.stdout!.on('data', split(v.lines));
  child.stderr!.on('data', split(v.notes));
  v.done = new Promise((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
  v.stop = async () => {
    child.kill('SIGINT');
    return v.done;
  };
  return v;
}

const watching = (v: Viewer) => waitFor('the viewer to watch', async () => v.notes.some((n) => n.startsWith('watching CRI calls on ')), { timeoutMs: 10_000 });

describe.skipIf(!requireTool('nats-server'))('kubelab trace against a real runtime', () => {
  let nats: NatsServerHandle;
  let h: Harness;
  const viewers: Viewer[] = [];
  beforeAll(async () => {
    nats = await startNatsServer();
    h = await startHarness({ podCidr: '10.244.1.0/24', natsUrl: nats.url });
    // The runtime publishes once its own NATS client is up: call Version until a record arrives.
    const nc = await connect({ servers: nats.url });
    let seen = 0;
    nc.subscribe(criSubject('node-1', 'Version'), {
      callback: () => {
        seen++;
      },
    });
    await nc.flush();
    await waitFor(
      'a Version record',
      async () => {
        await h.cri.rt.Version({ version: 'v1' });
        return seen > 0;
      },
      { timeoutMs: 10_000, everyMs: 50 },
    );
    await nc.close();
  }, 30_000);
  afterAll(async () => {
    for (const v of viewers) await v.stop().catch(() => {});
    await h?.dispose();
    await nats?.dispose();
  });

  it('shows a pod start as ordered CRI lines (--json from the CLI, text in-process), relists hidden and counted', async () => {
    expect(existsSync(MAIN), `${MAIN} is built by \`pnpm turbo run build --filter @kubelab/kubelab\``).toBe(true);
    const json = cli(['--json', '--nats-url', nats.url]);
    const text = inProcess(nats.url);
    viewers.push(json, text);
    await watching(json);
    await watching(text);
    expect(text.notes).toEqual([`watching CRI calls on ${nats.url} (kubelab.cri.>); relist calls hidden (--all shows them); lines in start order; Ctrl-C stops`]);

    const cfg = sandboxConfig('web', h.dir);
    const { podSandboxId } = (await h.cri.rt.RunPodSandbox({ config: cfg })) as { podSandboxId: string };
    await h.cri.img.PullImage({ image: { image: 'busybox:1.36' }, sandboxConfig: cfg });
    const { containerId } = (await h.cri.rt.CreateContainer({ podSandboxId, config: containerConfig('app', 'busybox:1.36', { command: ['sh', '-c', 'sleep 3600'] }), sandboxConfig: cfg })) as {
      containerId: string;
    };
    await h.cri.rt.ListContainers({}); // a relist: hidden
    await h.cri.rt.StartContainer({ containerId });
    await h.cri.rt.ExecSync({ containerId, cmd: ['cat', '/tmp/healthy'], timeout: 1 });
    await expect(h.cri.rt.ContainerStatus({ containerId: 'nope' })).rejects.toMatchObject({ code: 5 });

    await waitFor('six lines in each format', async () => json.lines.length >= 6 && text.lines.length >= 6, { timeoutMs: 10_000 });
    expect(await json.stop()).toBe(0);
    expect(await text.stop()).toBe(0);

    const objs = json.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const pick = ({ node, method, namespace, pod, container, code }: Record<string, unknown>) => ({ node, method, namespace, pod, container, code });
    expect(objs.map(pick)).toEqual([
      { node: 'node-1', method: 'RunPodSandbox', namespace: 'default', pod: 'web', container: null, code: 'OK' },
      { node: 'node-1', method: 'PullImage', namespace: 'default', pod: 'web', container: null, code: 'OK' },
      { node: 'node-1', method: 'CreateContainer', namespace: 'default', pod: 'web', container: 'app', code: 'OK' },
      { node: 'node-1', method: 'StartContainer', namespace: 'default', pod: 'web', container: 'app', code: 'OK' },
      { node: 'node-1', method: 'ExecSync', namespace: 'default', pod: 'web', container: 'app', code: 'OK' },
      { node: 'node-1', method: 'ContainerStatus', namespace: null, pod: null, container: null, code: 'NOT_FOUND' },
    ]);
    for (const o of objs) expect(o.durationMs).toEqual(expect.any(Number));
    expect(objs[0]).toMatchObject({ podSandboxId, request: { pod: 'default/web', uid: 'uid-web', attempt: 0 } });
    expect(objs[2]).toMatchObject({ containerId, request: { image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3600'] } });
    expect(objs[5]).toMatchObject({ message: 'an error occurred when try to find container "nope": not found' });

    const TIME = /^\d{2}:\d{2}:\d{2}\.\d{3} {2}/;
    for (const l of text.lines.slice(0, 6)) expect(l).toMatch(TIME);
    // Durations vary: blank each line's own (the same record reached both viewers).
    const shape = text.lines.map((l, i) => {
      const d = objs[i]?.durationMs;
      return typeof d === 'number' ? l.replace(TIME, '').replace(`  ${formatDurationMs(d).padStart(7)}  `, '  <dur>  ') : l;
    });
    expect(shape).toEqual([
      'kubelet(node-1) → containerd(node-1)  RunPodSandbox     default/web               <dur>  OK',
      'kubelet(node-1) → containerd(node-1)  PullImage         default/web               image=busybox:1.36  <dur>  OK',
      `kubelet(node-1) → containerd(node-1)  CreateContainer   default/web app           image=busybox:1.36 command=sh -c 'sleep 3600'  <dur>  OK`,
      'kubelet(node-1) → containerd(node-1)  StartContainer    default/web app           <dur>  OK',
      // the probe's file does not exist in this container: the exit code says so
      'kubelet(node-1) → containerd(node-1)  ExecSync          default/web app           cmd=cat /tmp/healthy timeout=1s  <dur>  OK (exit code 1)',
      'kubelet(node-1) → containerd(node-1)  ContainerStatus   -                         verbose=false  <dur>  NOT_FOUND: an error occurred when try to find container "nope": not found',
      '(1 relist call hidden; --all shows them)',
    ]);
  });

  it('--since replays the stored calls (KUBELAB_CRI stream), filtered by --pod and --method', async () => {
    const v = inProcess(nats.url, { pod: { namespace: 'default', name: 'web' }, methods: ['CreateContainer', 'StartContainer'] }, { json: true, since: new Date(Date.now() - 60_000) });
    viewers.push(v);
    await waitFor('two lines', async () => v.lines.length >= 2, { timeoutMs: 10_000 });
    expect(await v.stop()).toBe(0);
    expect(v.notes[0]).toMatch(/^watching CRI calls on nats:\/\/127\.0\.0\.1:\d+ \(kubelab\.cri\.>\) since \d{4}-.*Z; relist calls hidden \(--all shows them\); lines in start order; Ctrl-C stops$/);
    expect(v.lines.map((l) => JSON.parse(l) as { method: string; pod: string; container: string }).map(({ method, pod, container }) => [method, pod, container])).toEqual([
      ['CreateContainer', 'web', 'app'],
      ['StartContainer', 'web', 'app'],
    ]);
  });

  it('says what to do when NATS is not there', async () => {
    const url = `nats://127.0.0.1:${await freePort()}`;
    const v = inProcess(url);
    expect(await v.done).toBe(1);
    expect(v.notes).toHaveLength(1);
    expect(v.notes[0]).toMatch(
      new RegExp(
        `^kubelab trace: cannot connect to NATS at ${url.replace(/\./g, '\\.')}: .+; is the cluster running\\? \\(\`pnpm kubelab up\`, or \`docker compose up\`\\); --nats-url picks another NATS$`,
      ),
    );
  });
});

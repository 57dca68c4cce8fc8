// `kubelab hollow status|stop|start`: the hollow nodes' power, for showing
// the node lifecycle controller's zone logic. `stop --zone zone-a` ends the
// kubelet and runtime of every hollow node in zone-a at once, as if the
// zone's machines lost power: their Leases and statuses stop, and after
// --node-monitor-grace-period the controller marks them Unknown and taints
// them at its zone's rate. `start` powers them on again (each from its own
// folder). The workers answer on their control sockets
// (`<state-dir>/run/hollow-node-<w>.sock`, services/kubemark control.ts).

import { existsSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { stateDirFrom } from './paths.js';

export interface HollowArgs {
  action: 'status' | 'stop' | 'start';
  /** Nodes named on the command line. */
  nodes: string[];
  zone?: string;
  /** The first N (by node number) of the chosen nodes. */
  count?: number;
  all: boolean;
  stateDir: string;
}

export interface HollowNodeState {
  name: string;
  zone: string;
  state: 'running' | 'stopped' | 'starting';
}

const USAGE = `usage: kubelab hollow status [--state-dir DIR]
       kubelab hollow stop|start (NODE... | --zone ZONE [--count N] | --all) [--state-dir DIR]`;

export function parseHollowArgs(argv: string[]): HollowArgs {
  const [action, ...rest] = argv;
  if (action !== 'status' && action !== 'stop' && action !== 'start') throw new Error(USAGE);
  const a: HollowArgs = { action, nodes: [], all: false, stateDir: '' };
  let stateDir: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? rest[++i];
      if (v === undefined || v === '') throw new Error(`flag needs an argument: ${flag}`);
      return v;
    };
    if (flag === '--zone') a.zone = value();
    else if (flag === '--count') {
      const raw = value();
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 1) throw new Error(`--count must be a whole number of at least 1, got "${raw}"`);
      a.count = n;
    } else if (flag === '--all') a.all = true;
    else if (flag === '--state-dir') stateDir = value();
    else if (flag.startsWith('-')) throw new Error(`unknown flag: ${flag}\n${USAGE}`);
    else a.nodes.push(arg);
  }
  if (action !== 'status' && !a.all && !a.zone && a.nodes.length === 0) throw new Error(`name the nodes to ${action}: NODE..., --zone ZONE or --all\n${USAGE}`);
  if (a.count !== undefined && a.nodes.length > 0) throw new Error('--count picks from --zone or --all, not from named nodes');
  a.stateDir = stateDirFrom(stateDir);
  return a;
}

const nodeNumber = (name: string) => Number(/(\d+)$/.exec(name)?.[1] ?? 0);

/** The nodes an action applies to, in node-number order; named nodes must exist. */
export function chooseNodes(a: Pick<HollowArgs, 'nodes' | 'zone' | 'count' | 'all'>, known: readonly HollowNodeState[]): string[] {
  const sorted = [...known].sort((x, y) => nodeNumber(x.name) - nodeNumber(y.name));
  if (a.nodes.length > 0) {
    const names = new Set(sorted.map((n) => n.name));
    const missing = a.nodes.filter((n) => !names.has(n));
    if (missing.length) throw new Error(`no hollow node ${missing.map((m) => `"${m}"`).join(', ')}`);
    return sorted.filter((n) => a.nodes.includes(n.name) && (!a.zone || n.zone === a.zone)).map((n) => n.name);
  }
  const inZone = sorted.filter((n) => !a.zone || n.zone === a.zone);
  if (a.zone && inZone.length === 0) throw new Error(`no hollow node in zone "${a.zone}" (zones: ${[...new Set(sorted.map((n) => n.zone))].join(', ')})`);
  return inZone.slice(0, a.count ?? inZone.length).map((n) => n.name);
}

/** `ZONE NODES RUNNING STOPPED` per zone, then the stopped nodes. */
export function formatStatus(nodes: readonly HollowNodeState[]): string {
  const zones = new Map<string, { total: number; running: number; stopped: number }>();
  for (const n of nodes) {
    const z = zones.get(n.zone) ?? { total: 0, running: 0, stopped: 0 };
    z.total++;
    if (n.state === 'running') z.running++;
    if (n.state === 'stopped') z.stopped++;
    zones.set(n.zone, z);
  }
  const rows = [['ZONE', 'NODES', 'RUNNING', 'STOPPED'], ...[...zones].sort(([a], [b]) => a.localeCompare(b)).map(([zone, z]) => [zone, String(z.total), String(z.running), String(z.stopped)])];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  let out = rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]! + 3))).join('')).join('\n') + '\n';
  const stopped = nodes.filter((n) => n.state === 'stopped').sort((a, b) => nodeNumber(a.name) - nodeNumber(b.name));
  if (stopped.length) out += `stopped: ${stopped.map((n) => n.name).join(' ')}\n`;
  return out;
}

function call(socket: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ nodes: unknown }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = request({ socketPath: socket, method, path, headers: data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        try {
          const v = JSON.parse(text) as { nodes?: unknown; message?: string };
          if (res.statusCode !== 200) reject(new Error(v.message ?? `HTTP ${res.statusCode}`));
          else resolve({ nodes: v.nodes });
        } catch {
          reject(new Error(`bad answer (HTTP ${res.statusCode})`));
        }
      });
    });
    req.on('error', reject);
    req.end(data);
  });
}

/** The workers' control sockets of a local cluster run with --hollow. */
export function controlSockets(stateDir: string): string[] {
  const run = join(stateDir, 'run');
  if (!existsSync(run)) return [];
  return readdirSync(run)
    .filter((f) => /^hollow-node-\d+\.sock$/.test(f))
    .sort((a, b) => nodeNumber(a.replace('.sock', '')) - nodeNumber(b.replace('.sock', '')))
    .map((f) => join(run, f));
}

export async function hollowCommand(argv: string[], out: (s: string) => void = (s) => void process.stdout.write(s), err: (s: string) => void = (s) => void process.stderr.write(s)): Promise<number> {
  let a: HollowArgs;
  try {
    a = parseHollowArgs(argv);
  } catch (e) {
    err(`kubelab hollow: ${(e as Error).message}\n`);
    return 2;
  }
  const sockets = controlSockets(a.stateDir);
  if (sockets.length === 0) {
    err(`kubelab hollow: no hollow-node worker answers in ${join(a.stateDir, 'run')} (is a cluster running there with \`kubelab up --hollow\`?)\n`);
    return 1;
  }
  try {
    const per = await Promise.all(sockets.map(async (s) => ({ socket: s, nodes: (await call(s, 'GET', '/nodes')).nodes as HollowNodeState[] })));
    const all = per.flatMap((p) => p.nodes);
    if (a.action === 'status') {
      out(formatStatus(all));
      return 0;
    }
    const chosen = new Set(chooseNodes(a, all));
    const t0 = performance.now();
    const done = (
      await Promise.all(
        per.map(async (p) => {
          const mine = p.nodes.filter((n) => chosen.has(n.name)).map((n) => n.name);
          return mine.length ? ((await call(p.socket, 'POST', `/${a.action}`, { nodes: mine })).nodes as string[]) : [];
        }),
      )
    ).flat();
    const secs = ((performance.now() - t0) / 1000).toFixed(1);
    const skipped = chosen.size - done.length;
    const verb = a.action === 'stop' ? 'stopped (kubelet and runtime down, as if their power went)' : 'started again';
    out(`${done.length} hollow node${done.length === 1 ? '' : 's'} ${verb} in ${secs}s${done.length ? `: ${done.sort((x, y) => nodeNumber(x) - nodeNumber(y)).join(' ')}` : ''}\n`);
    if (skipped > 0) out(`${skipped} already ${a.action === 'stop' ? 'stopped' : 'running'}\n`);
    return 0;
  } catch (e) {
    err(`kubelab hollow ${a.action}: ${(e as Error).message}\n`);
    return 1;
  }
}

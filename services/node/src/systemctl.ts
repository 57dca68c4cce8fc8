// systemctl on a kubelab node: reads the units' state files, their
// processes from /proc and their journal; start/stop/restart/kill go to the
// unit's manager over its control socket. Exit codes as systemctl(1):
// 0 active, 3 not running, 4 no such unit (status), 5 unit not loaded (jobs).

import { cgroupProcsPath, effectiveState, listUnitStates, pidAlive, readCgroupProcs, readJournal, readUnitState, sendControl, unitName, type ControlVerb, type UnitState } from '@kubelab/systemd';
import { constants } from 'node:os';
import { formatRecord } from './journalctl.js';
import type { Io, NodeEnv, Tool } from './node-env.js';
import { allProcs, bootTime, CLK_TCK, treeOf } from './proc.js';
import { withContainerProcs } from './shim-ps.js';
import { formatListUnits, formatShow, formatStatus, managerUnreachable, type UnitProc } from './systemctl-format.js';

const EXIT_NOT_RUNNING = 3;
const EXIT_NO_SUCH_UNIT = 4;
const EXIT_NOT_LOADED = 5;

function current(env: NodeEnv, unit: string): UnitState | undefined {
  const s = readUnitState(env.root, unit);
  return s && effectiveState(s, pidAlive);
}

/** The unit's cgroup: the main process's tree and what joined the cgroup (containerd's shims), by pid. */
function unitProcs(s: UnitState, env: NodeEnv): UnitProc[] {
  const roots = [...(s.mainPid > 0 ? [s.mainPid] : []), ...readCgroupProcs(cgroupProcsPath(env.root, s.unit))];
  if (roots.length === 0) return [];
  const procs = allProcs();
  const seen = new Set<number>();
  // The shim host's row is its sandboxes' shims, as a real node's cgroup lists one shim per pod.
  const members = withContainerProcs(
    roots
      .flatMap((pid) => treeOf(pid, procs))
      .filter((p) => !seen.has(p.pid) && seen.add(p.pid))
      .sort((a, b) => a.pid - b.pid),
    bootTime,
    false,
  );
  return members.map((p) => ({ pid: p.pid, comm: p.comm, cmdline: p.cmdline, rssKb: p.rssKb, threads: p.threads, cpuUs: ((p.utime + p.stime) / CLK_TCK) * 1e6 }));
}

async function status(units: string[], io: Io, env: NodeEnv, lines: number): Promise<number> {
  let code = 0;
  const now = io.now?.() ?? new Date();
  for (const [i, unit] of units.entries()) {
    const s = current(env, unit);
    if (!s) {
      io.err(`Unit ${unit} could not be found.\n`);
      code = Math.max(code, EXIT_NO_SUCH_UNIT);
      continue;
    }
    const journal = lines > 0 ? (await readJournal(env.root, { units: [unit], lines })).map((r) => formatRecord(r)) : [];
    if (i > 0) io.out('\n');
    io.out(formatStatus(s, unitProcs(s, env), journal, now));
    if (s.activeState !== 'active' && code === 0) code = EXIT_NOT_RUNNING;
  }
  return code;
}

const JOB_VERB: Record<ControlVerb, string> = { start: 'start', stop: 'stop', restart: 'restart', kill: 'kill unit' };

async function job(verb: ControlVerb, units: string[], io: Io, env: NodeEnv, signal: NodeJS.Signals | undefined): Promise<number> {
  if (units.length === 0) {
    io.err(`Too few arguments.\n`);
    return 1;
  }
  for (const unit of units) {
    const s = readUnitState(env.root, unit);
    if (!s) {
      io.err(`Failed to ${JOB_VERB[verb]} ${unit}: Unit ${unit} ${verb === 'start' || verb === 'restart' ? 'not found' : 'not loaded'}.\n`);
      return verb === 'kill' ? 1 : EXIT_NOT_LOADED;
    }
    if (!s.controlSocket) {
      io.err(managerUnreachable(JOB_VERB[verb], s, 'Transport endpoint is not connected'));
      return 1;
    }
    try {
      const reply = await sendControl(s.controlSocket, { verb, ...(signal ? { signal } : {}) });
      if (!reply.ok) {
        io.err(`Failed to ${JOB_VERB[verb]} ${unit}: ${reply.error}\n`);
        return 1;
      }
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      // No manager listens (its process, or in compose its container, is gone).
      const gone = err.code === 'ECONNREFUSED' ? 'Connection refused' : err.code === 'ENOENT' ? 'Transport endpoint is not connected' : undefined;
      io.err(gone ? managerUnreachable(JOB_VERB[verb], s, gone) : `Failed to ${JOB_VERB[verb]} ${unit}: ${err.message}\n`);
      return 1;
    }
  }
  return 0;
}

function parseSignal(v: string): NodeJS.Signals | undefined {
  const name = /^\d+$/.test(v) ? Object.entries(constants.signals).find(([, n]) => n === Number(v))?.[0] : v.toUpperCase().startsWith('SIG') ? v.toUpperCase() : `SIG${v.toUpperCase()}`;
  return name && name in constants.signals ? (name as NodeJS.Signals) : undefined;
}

export const systemctl: Tool = async (argv: string[], io: Io, env: NodeEnv) => {
  const positional: string[] = [];
  let all = false;
  let type: string | undefined;
  let lines = 10;
  let signal: NodeJS.Signals | undefined;
  const props: string[] = [];
  let valueOnly = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [name, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = () => inline ?? argv[++i] ?? '';
    if (name === '--all' || name === '-a') all = true;
    else if (name === '--type' || name === '-t') type = value();
    else if (name === '--lines' || name === '-n') lines = Number(value());
    else if (name === '--property' || name === '-p') props.push(...value().split(','));
    else if (name === '--value') valueOnly = true;
    else if (name === '--signal' || name === '-s') {
      const v = value();
      signal = parseSignal(v);
      if (!signal) {
        io.err(`Failed to parse signal string ${v}.\n`);
        return 1;
      }
    } else if (['--no-pager', '--full', '-l', '--no-legend', '--plain', '-q', '--quiet'].includes(name)) continue;
    else if (a.startsWith('-')) {
      io.err(`systemctl: unrecognized option '${a}'\n`);
      return 1;
    } else positional.push(a);
  }
  const [verb = 'list-units', ...rest] = positional;
  const units = rest.map(unitName);
  switch (verb) {
    case 'status':
      if (units.length === 0)
        return status(
          listUnitStates(env.root).map((s) => s.unit),
          io,
          env,
          lines,
        );
      return status(units, io, env, lines);
    case 'show': {
      // systemctl show of an unknown unit prints its properties as not-found; kubelab's nodes know only their units.
      for (const [i, unit] of units.entries()) {
        const s = current(env, unit);
        if (!s) {
          io.out(`${i > 0 ? '\n' : ''}Id=${unit}\nLoadState=not-found\nActiveState=inactive\nSubState=dead\n`);
          continue;
        }
        io.out((i > 0 ? '\n' : '') + formatShow(s, props, valueOnly));
      }
      return 0;
    }
    case 'is-active':
    case 'is-failed': {
      let hit = false;
      for (const unit of units) {
        const s = current(env, unit);
        const state = s?.activeState ?? 'inactive';
        io.out(`${state}\n`);
        if (verb === 'is-active' ? state === 'active' : state === 'failed') hit = true;
      }
      return hit ? 0 : verb === 'is-active' ? EXIT_NOT_RUNNING : 1;
    }
    case 'list-units': {
      // kubelab's nodes have service units only.
      const states = listUnitStates(env.root).map((s) => effectiveState(s, pidAlive));
      io.out(formatListUnits(type !== undefined && type !== 'service' ? [] : states, all));
      return 0;
    }
    case 'start':
    case 'stop':
    case 'restart':
    case 'kill':
      return job(verb, units, io, env, verb === 'kill' ? (signal ?? 'SIGTERM') : undefined);
    default:
      io.err(`Unknown command verb '${verb}'.\n`);
      return 1;
  }
};

// The service manager of one unit, the part of systemd (src/core/service.c,
// journald's stdout streams) a kubelab node needs: it spawns the unit's main
// process, turns its stdout/stderr into journal records line by line (and
// passes them on), records every state change in the unit's state file,
// writes systemd's own lines about the unit, and takes start/stop/restart/
// kill from systemctl over its control socket. Restart=no: a unit that dies
// stays down until someone starts it.

import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { rmSync } from 'node:fs';
import type { Server } from 'node:net';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { CGROUP_PROCS_ENV, cgroupProcsPath, readCgroupProcs, writeCgroupProcs } from './cgroup.js';
import { controlSocketPath, serveControl, type ControlRequest } from './control.js';
import { appendJournal, realtimeNow, type JournalRecord } from './journal.js';
import * as msg from './messages.js';
import { initialState, onExited, onStarted, onStarting, onStopping, writeUnitState, type UnitDefinition, type UnitState } from './unit-state.js';

export interface ServiceUnitDefinition extends UnitDefinition {
  /** SYSLOG_IDENTIFIER of the main process's lines, and its journal file's name. */
  identifier: string;
  /** Type=notify units (containerd) log `Starting …` before `Started …`; Type=simple ones only `Started …`. */
  type?: 'simple' | 'notify';
  /**
   * KillMode=: who a stop signals. control-group (systemd's default): every
   * process of the unit's cgroup; process: the main process only, so what it
   * started lives on (containerd.service: its shims and their containers
   * survive `systemctl restart containerd`).
   */
  killMode?: 'control-group' | 'process';
}

export interface ServiceManagerOptions {
  /** The node root (KUBELAB_NODE_ROOT). */
  root: string;
  /** _HOSTNAME of the records: the node's name. */
  hostname: string;
  unit: ServiceUnitDefinition;
  /** What is spawned: [executable, ...args] (the runner's real paths; the unit's ExecStart shows the node's). */
  command: string[];
  env?: NodeJS.ProcessEnv;
  /** Where the main process's lines go on besides the journal (default: this process's stderr). */
  output?: NodeJS.WritableStream;
  /** TimeoutStopSec: SIGKILL after this long in stop-sigterm (default 90 s, as systemd). */
  stopTimeoutMs?: number;
  now?: () => Date;
  /** The compose service whose container runs this manager (recorded in the unit's state; see UnitState.container). */
  container?: string;
}

interface ServiceManagerEvents {
  /** A main process was spawned. */
  start: [child: ChildProcess];
  /** The main process ended; `requested` when a stop or restart asked for it. */
  exit: [code: number | null, signal: NodeJS.Signals | null, requested: boolean];
}

/** journald's LineMax: longer lines are split. */
const LINE_MAX = 48 * 1024;

export class ServiceManager extends EventEmitter<ServiceManagerEvents> {
  private current: UnitState;
  private proc: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  private stopRequested = false;
  private server: Server | undefined;
  private readonly now: () => Date;

  constructor(private readonly opts: ServiceManagerOptions) {
    super();
    this.now = opts.now ?? (() => new Date());
    this.current = { ...initialState(opts.unit), ...(opts.container ? { container: opts.container } : {}) };
    writeUnitState(opts.root, this.current);
  }

  get state(): UnitState {
    return this.current;
  }

  /** The running main process, if any. */
  get child(): ChildProcess | undefined {
    return this.proc;
  }

  /** Serves the control socket; returns its path ('' when the node root's path is too long for a socket address). */
  async listen(): Promise<string> {
    const path = controlSocketPath(this.opts.root, this.opts.unit.unit);
    this.server = await serveControl(path, (req) => this.control(req));
    this.setState({ ...this.current, controlSocket: this.server ? path : '' });
    return this.server ? path : '';
  }

  private control(req: ControlRequest): Promise<void> {
    switch (req.verb) {
      case 'start':
        return this.start();
      case 'stop':
        return this.stop();
      case 'restart':
        return this.restart();
      case 'kill':
        this.kill(req.signal ?? 'SIGTERM');
        return Promise.resolve();
    }
  }

  /** systemctl start: spawns the main process unless it runs already. */
  async start(): Promise<void> {
    if (this.proc) return;
    const { unit, command } = this.opts;
    if (unit.type === 'notify') this.systemdLine(msg.starting(unit.unit, unit.description));
    this.setState(onStarting(this.current, this.now()));
    const [exe, ...args] = command;
    const cgroup = cgroupProcsPath(this.opts.root, unit.unit);
    const child = spawn(exe!, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...(this.opts.env ?? process.env), [CGROUP_PROCS_ENV]: cgroup } });
    this.proc = child;
    this.stopRequested = false;
    const spawned = new Promise<boolean>((resolve) => {
      child.once('spawn', () => resolve(true));
      child.once('error', () => resolve(false));
    });
    this.exited = new Promise<void>((resolve) => {
      child.once('close', (code, signal) => {
        this.onExit(code, signal);
        resolve();
      });
    });
    if (!(await spawned)) {
      // systemd's status 203/EXEC: the executable could not be run.
      await this.exited;
      return;
    }
    writeCgroupProcs(cgroup, [child.pid!]);
    this.pipe(child.stdout!, child.pid!);
    this.pipe(child.stderr!, child.pid!);
    this.setState(onStarted(this.current, child.pid!, this.now()));
    this.systemdLine(msg.started(unit.unit, unit.description));
    this.emit('start', child);
  }

  /** systemctl stop: SIGTERM, SIGKILL after TimeoutStopSec; resolves once the main process is gone. */
  async stop(): Promise<void> {
    const child = this.proc;
    if (!child) return;
    const { unit } = this.opts;
    this.stopRequested = true;
    this.systemdLine(msg.stopping(unit.unit, unit.description));
    this.setState(onStopping(this.current, this.now()));
    child.kill('SIGTERM');
    // KillMode=control-group: the rest of the cgroup gets the signal too.
    if ((unit.killMode ?? 'control-group') === 'control-group') this.signalCgroup('SIGTERM', child.pid);
    const timer = setTimeout(() => {
      this.systemdLine(`${unit.unit}: State 'stop-sigterm' timed out. Killing.`, 4);
      this.systemdLine(`${unit.unit}: Killing process ${child.pid} (${unit.identifier}) with signal SIGKILL.`, 4);
      child.kill('SIGKILL');
    }, this.opts.stopTimeoutMs ?? 90_000);
    await this.exited;
    clearTimeout(timer);
  }

  /**
   * The node going away (the runner's stop, systemd's shutdown): the unit is
   * stopped, then whatever is left in its cgroup (KillMode=process leftovers:
   * containerd's shims) gets SIGTERM and, after `graceMs`, SIGKILL.
   */
  async shutdown(graceMs = 5000): Promise<void> {
    await this.stop();
    const path = cgroupProcsPath(this.opts.root, this.opts.unit.unit);
    if (!this.signalCgroup('SIGTERM')) return;
    const deadline = Date.now() + graceMs;
    while (readCgroupProcs(path).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    this.signalCgroup('SIGKILL');
    writeCgroupProcs(path);
  }

  /** Sends `signal` to the live processes of the unit's cgroup but `except`; returns how many there were. */
  private signalCgroup(signal: NodeJS.Signals, except?: number): number {
    const pids = readCgroupProcs(cgroupProcsPath(this.opts.root, this.opts.unit.unit)).filter((p) => p !== except);
    for (const pid of pids) {
      try {
        process.kill(pid, signal);
      } catch {
        // Gone meanwhile.
      }
    }
    return pids.length;
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** systemctl kill: a signal to the main process; what follows is whatever its end brings. */
  kill(signal: NodeJS.Signals): void {
    this.proc?.kill(signal);
  }

  /** Stops serving the control socket (the unit's state stays as it is). */
  async close(): Promise<void> {
    if (!this.server) return;
    const server = this.server;
    this.server = undefined;
    await new Promise<void>((r) => server.close(() => r()));
    rmSync(controlSocketPath(this.opts.root, this.opts.unit.unit), { force: true });
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    const { unit } = this.opts;
    const requested = this.stopRequested;
    const neverRan = this.current.activeState === 'activating';
    // The spawn failed: systemd reports status 203/EXEC.
    const next = onExited(this.current, neverRan && !signal && (code === null || code < 0) ? 203 : code, signal, this.now());
    const exit = { code: next.execMainCode as 'exited' | 'killed', status: next.execMainStatus };
    if (next.result === 'success') this.systemdLine(msg.deactivatedSuccessfully(unit.unit));
    else {
      this.systemdLine(msg.mainProcessExited(unit.unit, exit), 5);
      this.systemdLine(msg.failedWithResult(unit.unit, next.result), 4);
    }
    if (neverRan) this.systemdLine(msg.failedToStart(unit.unit, unit.description), 3);
    else if (requested) this.systemdLine(msg.stopped(unit.unit, unit.description));
    this.proc = undefined;
    this.stopRequested = false;
    this.setState(next);
    this.emit('exit', code, signal, requested);
  }

  /** journald's stdout stream: one record per line, passed on to the output as written. */
  private pipe(stream: Readable, pid: number): void {
    const out = this.opts.output ?? process.stderr;
    const { unit, hostname } = this.opts;
    const rl = createInterface({ input: stream, crlfDelay: Infinity });
    rl.on('line', (line) => {
      out.write(line + '\n');
      for (let i = 0; i === 0 || i < line.length; i += LINE_MAX) {
        this.append({
          __REALTIME_TIMESTAMP: realtimeNow(this.now()),
          _HOSTNAME: hostname,
          _PID: String(pid),
          _SYSTEMD_UNIT: unit.unit,
          SYSLOG_IDENTIFIER: unit.identifier,
          PRIORITY: '6',
          _TRANSPORT: 'stdout',
          MESSAGE: line.slice(i, i + LINE_MAX),
        });
      }
    });
  }

  /** A line of systemd's own about this unit (systemd.jsonl, UNIT= names the unit). */
  private systemdLine(message: string, priority = 6): void {
    this.append({
      __REALTIME_TIMESTAMP: realtimeNow(this.now()),
      _HOSTNAME: this.opts.hostname,
      _PID: String(process.pid),
      SYSLOG_IDENTIFIER: 'systemd',
      PRIORITY: String(priority),
      _TRANSPORT: 'journal',
      UNIT: this.opts.unit.unit,
      MESSAGE: message,
    });
  }

  private append(r: JournalRecord): void {
    try {
      appendJournal(this.opts.root, r);
    } catch (e) {
      // A full or read-only disk loses journal lines, never the unit.
      process.stderr.write(`systemd-journald: cannot write ${r.SYSLOG_IDENTIFIER}'s journal: ${(e as Error).message}\n`);
    }
  }

  private setState(s: UnitState): void {
    this.current = s;
    try {
      writeUnitState(this.opts.root, s);
    } catch (e) {
      process.stderr.write(`systemd: cannot record ${s.unit}'s state: ${(e as Error).message}\n`);
    }
  }
}

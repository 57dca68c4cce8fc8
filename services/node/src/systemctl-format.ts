// What systemctl prints (src/systemctl/systemctl-show.c's print_status_info,
// systemctl-list-units.c's output_units_list), as pure functions of the
// unit's state, its processes and its journal lines.

import { exitParenthetical, type UnitState } from '@kubelab/systemd';
import { relativeAgo, statusTimestamp, timespan } from './time.js';

/** A process of the unit's cgroup. */
export interface UnitProc {
  pid: number;
  comm: string;
  cmdline: string;
  rssKb: number;
  threads: number;
  /** CPU time used, µs. */
  cpuUs: number;
}

/** unit_active_state_to_glyph: ● active and transitional, ○ inactive, × failed. */
export function glyph(s: UnitState): string {
  return s.activeState === 'failed' ? '×' : s.activeState === 'inactive' ? '○' : '●';
}

/** `35.2M` (format_bytes: IEC, one truncated decimal). */
export function formatBytes(n: number): string {
  const units = ['E', 'P', 'T', 'G', 'M', 'K'];
  for (let i = 0; i < units.length; i++) {
    const f = 1024 ** (units.length - i);
    if (n >= f) return `${Math.floor(n / f)}.${Math.floor((n * 10) / f) % 10}${units[i]}`;
  }
  return `${n}B`;
}

const label = (name: string) => `${name.padStart(11)}: `;
const INDENT = ' '.repeat(13);

function since(iso: string, now: Date): string {
  if (!iso) return '';
  const t = new Date(iso);
  return ` since ${statusTimestamp(t)}; ${relativeAgo((now.getTime() - t.getTime()) * 1000)}`;
}

/** `systemctl status <unit>`: the header, the property lines, the cgroup and the journal's last lines. */
export function formatStatus(s: UnitState, procs: UnitProc[], journal: string[], now: Date): string {
  const out: string[] = [];
  out.push(`${glyph(s)} ${s.unit}${s.description ? ` - ${s.description}` : ''}`);
  out.push(`${label('Loaded')}loaded (${s.fragmentPath}; ${s.unitFileState}; preset: enabled)`);
  const sub = s.activeState === 'failed' ? `Result: ${s.result}` : s.subState;
  const when = s.activeState === 'active' ? s.activeEnterTimestamp : s.stateChangeTimestamp;
  out.push(`${label('Active')}${s.activeState} (${sub})${since(when, now)}`);
  const ended = (s.activeState === 'inactive' || s.activeState === 'failed') && s.execMainCode !== '';
  if (ended && s.activeEnterTimestamp && s.activeExitTimestamp) {
    out.push(`${label('Duration')}${timespan((Date.parse(s.activeExitTimestamp) - Date.parse(s.activeEnterTimestamp)) * 1000)}`);
  }
  (s.documentation ?? []).forEach((d, i) => out.push(i === 0 ? `${label('Docs')}${d}` : `${INDENT}${d}`));
  if (ended) {
    const exit = exitParenthetical({ code: s.execMainCode as 'exited' | 'killed', status: s.execMainStatus });
    out.push(`${label('Process')}${s.execMainPid ?? 0} ExecStart=${s.execStart} ${exit}`);
    out.push(`${label('Main PID')}${s.execMainPid ?? 0} ${exit}`);
  } else if (s.mainPid > 0) {
    const main = procs.find((p) => p.pid === s.mainPid);
    out.push(`${label('Main PID')}${s.mainPid}${main ? ` (${main.comm})` : ''}`);
  }
  if (procs.length) {
    out.push(`${label('Tasks')}${procs.reduce((n, p) => n + p.threads, 0)}`);
    out.push(`${label('Memory')}${formatBytes(procs.reduce((n, p) => n + p.rssKb * 1024, 0))}`);
    out.push(`${label('CPU')}${timespan(procs.reduce((n, p) => n + p.cpuUs, 0))}`);
    out.push(`${label('CGroup')}/system.slice/${s.unit}`);
    procs.forEach((p, i) => out.push(`${INDENT}${i === procs.length - 1 ? '└─' : '├─'}${p.pid} ${p.cmdline}`));
  }
  if (journal.length) out.push('', ...journal);
  return out.join('\n') + '\n';
}

/** `systemctl list-units --type=service [--all]`: the table, its legend and the count. */
export function formatListUnits(units: UnitState[], all: boolean): string {
  const shown = units.filter((u) => all || u.activeState !== 'inactive');
  const rows = shown.map((u) => [u.unit, 'loaded', u.activeState, u.subState, u.description]);
  const head = ['UNIT', 'LOAD', 'ACTIVE', 'SUB', 'DESCRIPTION'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[], mark: string) =>
    mark +
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join(' ')
      .trimEnd();
  const out = [line(head, '  '), ...rows.map((r, i) => line(r, shown[i]!.activeState === 'failed' ? '● ' : '  '))];
  out.push(
    '',
    'LOAD   = Reflects whether the unit definition was properly loaded.',
    'ACTIVE = The high-level unit activation state, i.e. generalization of SUB.',
    'SUB    = The low-level unit activation state, values depend on unit type.',
    all ? `${shown.length} loaded units listed.` : `${shown.length} loaded units listed. Pass --all to see loaded but inactive units, too.`,
    "To show all installed unit files use 'systemctl list-unit-files'.",
  );
  return out.join('\n') + '\n';
}

/** `systemctl show`'s properties of a service, in its order and value forms (timestamps as format_timestamp). */
export function showProperties(s: UnitState): [string, string][] {
  const ts = (iso: string | undefined) => (iso ? statusTimestamp(new Date(iso)) : '');
  return [
    ['Type', 'simple'],
    ['Restart', 'no'],
    ['MainPID', String(s.mainPid)],
    ['ExecMainPID', String(s.execMainPid ?? s.mainPid)],
    ['ExecMainCode', s.execMainCode === 'killed' ? '2' : s.execMainCode === 'exited' ? '1' : '0'],
    ['ExecMainStatus', String(s.execMainStatus)],
    ['NRestarts', String(s.nRestarts)],
    ['Result', s.result],
    ['Id', s.unit],
    ['Description', s.description],
    ['LoadState', 'loaded'],
    ['ActiveState', s.activeState],
    ['SubState', s.subState],
    ['FragmentPath', s.fragmentPath],
    ['UnitFileState', s.unitFileState],
    ['StateChangeTimestamp', ts(s.stateChangeTimestamp)],
    ['ActiveEnterTimestamp', ts(s.activeEnterTimestamp)],
    ['ActiveExitTimestamp', ts(s.activeExitTimestamp)],
    // Type=simple: the unit leaves inactive when its main process starts.
    ['InactiveExitTimestamp', ts(s.activeEnterTimestamp)],
    ['InactiveEnterTimestamp', s.activeState === 'inactive' || s.activeState === 'failed' ? ts(s.stateChangeTimestamp) : ''],
  ];
}

/** `systemctl show [-p A,B] [--value]`: `Key=Value` lines, or bare values. */
export function formatShow(s: UnitState, props: string[], valueOnly: boolean): string {
  const all = showProperties(s);
  const chosen = props.length ? props.map((p) => all.find(([k]) => k === p) ?? ([p, ''] as [string, string])) : all;
  return chosen.map(([k, v]) => (valueOnly ? v : `${k}=${v}`)).join('\n') + '\n';
}

/**
 * A job's error when the unit's manager does not answer: systemctl's line
 * (`Failed to start kubelet.service: Connection refused`), and in compose,
 * where the manager lives in the unit's own container (UnitState.container),
 * what brings it back: that container, started from the host.
 */
export function managerUnreachable(verb: string, s: Pick<UnitState, 'unit' | 'container'>, reason: string): string {
  const line = `Failed to ${verb} ${s.unit}: ${reason}\n`;
  if (!s.container) return line;
  return `${line}${s.unit} runs in the container of compose service ${s.container}, which is not running: start it on the host with \`docker compose start ${s.container}\`.\n`;
}

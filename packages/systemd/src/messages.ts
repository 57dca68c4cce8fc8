// The lines systemd (PID 1) writes to the journal about a service's life
// (upstream src/core/job.c's start/stop status messages and service.c's
// sigchld and result messages), and the exit status and signal names
// systemctl prints (src/shared/exit-status.c, signal_to_string()).

import { constants } from 'node:os';

/** `kubelet.service - kubelet: The Kubernetes Node Agent`: StatusUnitFormat=combined, systemd's default since v251. */
function combined(unit: string, description: string): string {
  return description && description !== unit ? `${unit} - ${description}` : unit;
}

export const starting = (unit: string, description: string) => `Starting ${combined(unit, description)}...`;
export const started = (unit: string, description: string) => `Started ${combined(unit, description)}.`;
export const stopping = (unit: string, description: string) => `Stopping ${combined(unit, description)}...`;
export const stopped = (unit: string, description: string) => `Stopped ${combined(unit, description)}.`;
export const failedToStart = (unit: string, description: string) => `Failed to start ${combined(unit, description)}.`;
export const deactivatedSuccessfully = (unit: string) => `${unit}: Deactivated successfully.`;
export const failedWithResult = (unit: string, result: string) => `${unit}: Failed with result '${result}'.`;

/** `kubelet.service: Main process exited, code=killed, status=9/KILL` (service_sigchld_event). */
export function mainProcessExited(unit: string, exit: ExitStatus): string {
  return `${unit}: Main process exited, code=${exit.code}, status=${statusText(exit)}`;
}

/** How the main process ended, as waitid() reports it: `exited` with a status, or `killed` by a signal. */
export interface ExitStatus {
  code: 'exited' | 'killed';
  status: number;
}

/** Node's (code, signal) of a child's exit as systemd's ExitStatus. */
export function exitStatusOf(code: number | null, signal: NodeJS.Signals | null): ExitStatus {
  if (signal) return { code: 'killed', status: signalNumber(signal) };
  return { code: 'exited', status: code ?? 0 };
}

// exit-status.c's names of the LSB statuses, and 203/EXEC (the executable could not be run).
const EXIT_STATUS_NAMES: Record<number, string> = {
  0: 'SUCCESS',
  1: 'FAILURE',
  2: 'INVALIDARGUMENT',
  3: 'NOTIMPLEMENTED',
  4: 'NOPERMISSION',
  5: 'NOTINSTALLED',
  6: 'NOTCONFIGURED',
  7: 'NOTRUNNING',
  203: 'EXEC',
};

/** `9/KILL`, `1/FAILURE`, `137` (a status without a name prints bare). */
export function statusText(exit: ExitStatus): string {
  const name = exit.code === 'killed' ? signalName(exit.status) : EXIT_STATUS_NAMES[exit.status];
  return name ? `${exit.status}/${name}` : String(exit.status);
}

/** `(code=killed, signal=KILL)` / `(code=exited, status=1/FAILURE)` of systemctl status's Main PID and Process lines. */
export function exitParenthetical(exit: ExitStatus): string {
  return exit.code === 'killed' ? `(code=killed, signal=${signalName(exit.status) ?? exit.status})` : `(code=exited, status=${statusText(exit)})`;
}

export function signalNumber(signal: NodeJS.Signals): number {
  return constants.signals[signal] ?? 0;
}

/** 9 → `KILL` (signal_to_string without the SIG prefix). */
export function signalName(n: number): string | undefined {
  const entry = Object.entries(constants.signals).find(([, v]) => v === n);
  return entry ? entry[0].replace(/^SIG/, '') : undefined;
}

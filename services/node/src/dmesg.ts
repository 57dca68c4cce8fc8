// dmesg over the node's kernel log (kernel.jsonl, /dev/kmsg's role):
// `[  123.456789] message` from the monotonic timestamp, `-T` with the
// wall-clock time as util-linux prints it, `-w` to follow.

import { followJournal, readJournal, type JournalRecord } from '@kubelab/systemd';
import type { Io, NodeEnv, Tool } from './node-env.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const p2 = (n: number) => String(n).padStart(2, '0');

/** `[  123.456789] msg`, or with -T `[Tue Dec  1 13:33:15 2026] msg` (ctime's layout). */
export function formatKernelLine(r: JournalRecord, ctime: boolean): string {
  if (ctime) {
    const d = new Date(Number(r.__REALTIME_TIMESTAMP) / 1000);
    const when = `${DAYS[d.getDay()]} ${MONTHS[d.getMonth()]} ${String(d.getDate()).padStart(2)} ${p2(d.getHours())}:${p2(d.getMinutes())}:${p2(d.getSeconds())} ${d.getFullYear()}`;
    return `[${when}] ${r.MESSAGE}`;
  }
  const us = Number(r._SOURCE_MONOTONIC_TIMESTAMP ?? 0);
  return `[${String(Math.floor(us / 1e6)).padStart(5)}.${String(us % 1e6).padStart(6, '0')}] ${r.MESSAGE}`;
}

export const dmesg: Tool = async (argv: string[], io: Io, env: NodeEnv) => {
  let ctime = false;
  let follow = false;
  for (const a of argv) {
    if (a === '-T' || a === '--ctime') ctime = true;
    else if (a === '-w' || a === '--follow') follow = true;
    else if (a === '-H' || a === '--human' || a === '-L' || a === '--color' || a === '-x' || a === '--decode') continue;
    else {
      io.err(`dmesg: unrecognized option '${a}'\nTry 'dmesg --help' for more information.\n`);
      return 1;
    }
  }
  const filter = { identifiers: ['kernel'] };
  const tail = follow && io.signal ? followJournal(env.root, filter, io.signal) : undefined;
  for (const r of await readJournal(env.root, filter)) io.out(formatKernelLine(r, ctime) + '\n');
  if (tail) for await (const r of tail) io.out(formatKernelLine(r, ctime) + '\n');
  return 0;
};

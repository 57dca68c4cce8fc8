// A container's main process without the runtime around it, for tests of the
// simulated shell: a bare image, no network, its log collected as lines.

import { chunkText } from '../output.js';
import { SimProcess } from '../process.js';

export interface StartedProcess {
  p: SimProcess;
  /** The container log as `stdout: text` / `stderr: text` lines. */
  log: string[];
}

/**
 * Starts `sh -c SCRIPT` (or `argv` as given) as PID 1; `timeScale` 20 makes a
 * container second 50 ms of wall time. `files` are added to the image.
 */
export function startProcess(script: string | string[], opts: { timeScale?: number; files?: Record<string, string> } = {}): StartedProcess {
  const log: string[] = [];
  const p = new SimProcess({
    argv: typeof script === 'string' ? ['sh', '-c', script] : script,
    env: { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', HOME: '/root' },
    cwd: '/',
    files: { '/etc/hostname': 'test\n', '/srv/app/index.html': 'hi\n', ...opts.files },
    programs: [],
    timeScale: opts.timeScale ?? 20,
    memoryLimitBytes: 0,
    baseMemoryBytes: 0,
    output: (s, t) =>
      log.push(
        ...chunkText(t)
          .split('\n')
          .filter(Boolean)
          .map((l) => `${s}: ${l}`),
      ),
    listen: () => Promise.reject(new Error('no network in this test')),
  });
  p.start();
  return { p, log };
}

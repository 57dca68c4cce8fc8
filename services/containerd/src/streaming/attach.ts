// Attaching to a container's main process (CRI Attach: `kubectl attach`,
// `kubectl run -it`), as containerd's ContainerIO does it:
// - an attached client gets PID 1's output from the moment it attaches (no
//   history: that is `kubectl logs`), on stdout/stderr or, with a tty, all on
//   the terminal;
// - a container created with `stdin: true` whose command is a shell (`sh`,
//   `/bin/bash -i`) runs that shell on its stdin, one line at a time, with the
//   exec session's shell (session.ts); what attached clients type goes there.
//   Other commands never read stdin: input to them is dropped, and input to a
//   container without stdin is ignored, as containerd ignores it;
// - the client closing its stdin closes the container's stdin when the
//   container has `stdinOnce` and no tty (the shell reads EOF and exits);
//   otherwise the client just detaches;
// - an attachment ends when PID 1 exits or the client goes away.
// busybox ash redraws its prompt when the terminal is resized; kubectl resizes
// on attaching, so a client attaching to a waiting shell gets the prompt.

import type { Stream } from '../logs.js';
import type { Chunk } from '../output.js';
import type { StreamOptions } from './protocol.js';
import { ExecSession, busyboxPrompt, isInteractiveShell, routeOutput, type ExecTarget } from './session.js';

/** What attaching needs of a container's process (SimProcess implements it). */
export interface MainProcess extends ExecTarget {
  readonly argv: string[];
  write(stream: Stream, data: Chunk): void;
  tapOutput(tap: (stream: Stream, data: Chunk) => void): () => void;
  readonly exited: Promise<unknown>;
}

/** The stdio fields of a CRI ContainerConfig. */
export interface StdioConfig {
  stdin: boolean;
  stdinOnce: boolean;
  tty: boolean;
}

/** A running container's stdio, as an attachment reads it. */
interface Stdio {
  config: StdioConfig;
  /** PID 1, when it is a shell reading the container's stdin. */
  shell?: ExecSession;
}

/** One client attached to a container's main process. */
export class Attachment {
  /** Resolves when the attachment ends (PID 1 exited, the client detached). */
  readonly done: Promise<void>;
  private end!: () => void;
  private readonly untap: () => void;
  private redrawn = false;

  constructor(
    private readonly stdio: Stdio,
    private readonly streams: StreamOptions,
    private readonly write: (channel: 1 | 2, data: Chunk) => void,
    proc: MainProcess,
  ) {
    this.done = new Promise((r) => (this.end = r));
    this.untap = proc.tapOutput((stream, text) => this.output(stream, text));
    void proc.exited.then(() => this.detach());
  }

  private output(stream: Stream, text: Chunk): void {
    routeOutput(this.streams, this.write, stream, text);
  }

  /** Data the client typed. */
  input(data: Chunk): void {
    if (this.streams.stdin && this.stdio.config.stdin) this.stdio.shell?.input(data);
  }

  /** The client closed its stdin. */
  closeInput(): void {
    if (!this.streams.stdin || !this.stdio.config.stdin) return;
    if (this.stdio.config.stdinOnce && !this.streams.tty) this.stdio.shell?.closeInput();
    else this.detach();
  }

  /** The client's terminal was resized: a shell waiting for a line redraws its prompt (once: kubectl resizes twice on attaching). */
  resize(): void {
    if (this.redrawn || !this.streams.tty || !this.streams.stdout) return;
    this.redrawn = true;
    const prompt = this.stdio.shell?.waitingPrompt;
    if (prompt) this.write(1, prompt);
  }

  detach(): void {
    this.untap();
    this.end();
  }
}

/**
 * At a container's start: PID 1 as a shell on the container's stdin, when the
 * container has stdin and its command is a shell (undefined: PID 1 runs its
 * argv's script). The runtime keeps it with the container's process.
 */
export function stdinShell(config: StdioConfig, proc: MainProcess, prompt: (cwd: string) => string = busyboxPrompt): ExecSession | undefined {
  if (!config.stdin || !isInteractiveShell(proc.argv)) return undefined;
  const shell = new ExecSession({
    argv: proc.argv,
    streams: { stdin: true, stdout: true, stderr: !config.tty, tty: config.tty },
    target: proc,
    write: (channel, text) => proc.write(channel === 1 ? 'stdout' : 'stderr', text),
    prompt,
  });
  void proc.exited.then(() => shell.abort());
  return shell;
}

/** The prompt an image's shell draws: busybox/alpine ash shows the directory, debian's dash (nginx) a bare `# ` (undefined: busybox's). */
export function imagePrompt(image: string): ((cwd: string) => string) | undefined {
  return /(^|\/)nginx(:|@|$)/.test(image) ? () => '# ' : undefined;
}

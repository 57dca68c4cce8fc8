// One exec's life on the streaming server: the command runs in the
// container's simulated shell beside PID 1 and its output goes to the client
// as each command finishes. Three shapes, as users meet them:
// - `kubectl exec POD -- cmd`: runs at once (no stdin);
// - `echo x | kubectl exec -i POD -- cmd`: stdin is collected until the
//   client closes it (v5 CLOSE), then the command runs with it;
// - `kubectl exec -i[t] POD -- sh`: an interactive shell, one line at a time.
// Limits of the interactive shell: it runs whole lines (no job control of the
// foreground command, no line editing or history, no programs that read the
// terminal themselves such as vi or top); variables and the working directory
// carry from line to line; `exit [n]`, Ctrl-D and closing stdin end it; ^C
// abandons the running line. With a tty a non-shell command runs at once and
// its input is ignored, except for the programs that read the terminal
// themselves (vi, redis-cli's prompt): they get the keys as typed (raw mode).

import { StringDecoder } from 'node:string_decoder';
import { parse, type ScriptNode } from 'just-bash';
import type { Stream } from '../logs.js';
import { chunkBytes, type Chunk } from '../output.js';
import { basename } from '../shell.js';
import type { Terminal } from '../program-process.js';
import type { StreamOptions } from './protocol.js';
import { LineDiscipline, toTerminal, type LineEvent } from './terminal.js';

/** What a session needs of the container (SimProcess implements it). */
export interface ExecTarget {
  execStream(
    argv: string[],
    o: { output: (stream: Stream, data: Chunk) => void; stdin?: Uint8Array; env?: Record<string, string>; cwd?: string; signal?: AbortSignal; terminal?: Terminal },
  ): Promise<{ exitCode: number; env: Record<string, string> }>;
  readonly execCwd: string;
}

/** Options of redis-cli that take a value. */
const REDIS_CLI_VALUED = new Set(['-h', '-p', '-a', '-n', '-u', '--user', '--pass']);

/** Programs that read their terminal key by key: vi, and redis-cli without a command (its prompt). */
export function isTerminalProgram(argv: string[]): boolean {
  const name = basename(argv[0] ?? '');
  if (name === 'vi') return true;
  if (name !== 'redis-cli') return false;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('-')) return false;
    if (REDIS_CLI_VALUED.has(a)) i++;
  }
  return true;
}

export interface SessionOptions {
  argv: string[];
  streams: StreamOptions;
  target: ExecTarget;
  /** Writes to the client on stdout (1) or stderr (2). */
  write: (channel: 1 | 2, data: Chunk) => void;
  /** The shell's prompt for a working directory (with a tty only). */
  prompt?: (cwd: string) => string;
}

const SHELLS = new Set(['sh', 'bash', 'ash', 'dash']);
/** Stdin a command reads whole is kept in memory until the client closes it: bounded by the container filesystem's size (process.ts). */
export const MAX_STDIN_BYTES = 64 * 1024 * 1024;
const SHELL_FLAGS = new Set(['-i', '-l', '-s', '--login']);

/** `sh`, `/bin/bash -i`, ...: a shell that reads its commands from stdin. */
export function isInteractiveShell(argv: string[]): boolean {
  const [cmd, ...rest] = argv;
  return cmd !== undefined && SHELLS.has(basename(cmd)) && rest.every((a) => SHELL_FLAGS.has(a));
}

/** Whether `text` is an unfinished compound command (`if ...; then` without `fi`): the shell asks for more (PS2). */
export function isIncomplete(text: string): boolean {
  try {
    parse(text);
    return false;
  } catch (e) {
    const msg = (e as Error).message;
    if (/\bEOF\b|end of file/i.test(msg)) return true;
    const at = /at (\d+):(\d+)/.exec(msg);
    if (!at) return false;
    const lines = text.split('\n');
    return Number(at[1]) === lines.length && Number(at[2]) > lines.at(-1)!.length;
  }
}

/** Whether a line ends the shell: a top-level `exit [n]`. */
export function exitsShell(text: string): boolean {
  let ast: ScriptNode;
  try {
    ast = parse(text);
  } catch {
    return false;
  }
  return ast.statements.some((st) =>
    st.pipelines.some((p) => p.commands.some((c) => c.type === 'SimpleCommand' && c.name?.parts.length === 1 && c.name.parts[0]!.type === 'Literal' && c.name.parts[0]!.value === 'exit')),
  );
}

/** The default prompt: busybox ash shows the directory (`/ # `), dash and others `# `. */
export function busyboxPrompt(cwd: string): string {
  return `${cwd} # `;
}

/** A process's output to the client: stdout and stderr as requested; with a tty both go to the terminal (channel 1). */
export function routeOutput(streams: StreamOptions, write: (channel: 1 | 2, data: Chunk) => void, stream: Stream, text: Chunk): void {
  if (streams.tty) {
    // ONLCR works on bytes: a latin1 view keeps each byte one character.
    if (streams.stdout) write(1, typeof text === 'string' ? toTerminal(text) : Buffer.from(toTerminal(chunkBytes(text).toString('latin1')), 'latin1'));
    return;
  }
  if (stream === 'stdout' && streams.stdout) write(1, text);
  if (stream === 'stderr' && streams.stderr) write(2, text);
}

export class ExecSession {
  private readonly discipline: LineDiscipline;
  private readonly queue: LineEvent[] = [];
  private wake: (() => void) | undefined;
  /** Stdin collected for a command that reads it whole, as bytes. */
  private stdin: Buffer[] = [];
  private stdinBytes = 0;
  /** Typed input for the line discipline: UTF-8 characters split across frames are joined. */
  private readonly decoder = new StringDecoder('utf8');
  private stdinClosed = false;
  private stdinOverflow = false;
  private stdinDone: (() => void) | undefined;
  private running: AbortController | undefined;
  private readonly ended = new AbortController();
  /** The prompt on screen while the shell waits for a line (tty only). */
  private shownPrompt: string | undefined;
  /** Keys for a program that reads the terminal itself (raw mode); undefined marks closed input. */
  private raw: (string | undefined)[] | undefined;
  private rawWake: (() => void) | undefined;

  constructor(private readonly o: SessionOptions) {
    this.discipline = new LineDiscipline(o.streams.tty);
  }

  private get interactive(): boolean {
    return this.o.streams.stdin && isInteractiveShell(this.o.argv);
  }

  private output = (stream: Stream, text: Chunk): void => {
    if (text.length) routeOutput(this.o.streams, this.o.write, stream, text);
  };

  /** What a terminal attaching now would get redrawn (busybox ash redraws its prompt on a resize): the prompt, when the shell waits for a line. */
  get waitingPrompt(): string | undefined {
    return this.shownPrompt;
  }

  /** Data the client wrote on stdin (a string is text, sent as UTF-8). */
  input(data: Chunk): void {
    if (!this.o.streams.stdin || this.stdinClosed) return;
    if (this.raw) {
      this.raw.push(typeof data === 'string' ? data : this.decoder.write(chunkBytes(data)));
      this.rawWake?.();
      return;
    }
    if (this.interactive || this.o.streams.tty) {
      const { echo, events } = this.discipline.feed(typeof data === 'string' ? data : this.decoder.write(chunkBytes(data)));
      if (echo && this.o.streams.tty && this.o.streams.stdout) this.o.write(1, echo);
      this.push(events);
      return;
    }
    const buf = chunkBytes(data);
    // A pipe holds what the container's filesystem could take, no more: the rest is refused as a full disk would.
    if (this.stdinBytes + buf.length > MAX_STDIN_BYTES) {
      this.stdinOverflow = true;
      return;
    }
    this.stdin.push(buf);
    this.stdinBytes += buf.length;
  }

  /** The client closed stdin (v5 CLOSE on channel 0). */
  closeInput(): void {
    if (this.stdinClosed) return;
    this.stdinClosed = true;
    this.raw?.push(undefined);
    this.rawWake?.();
    if (this.interactive) this.push(this.discipline.end());
    this.stdinDone?.();
  }

  /** The connection is gone: stop whatever runs. */
  abort(): void {
    this.ended.abort();
    this.running?.abort();
    this.stdinDone?.();
    this.wake?.();
    this.rawWake?.();
  }

  /** The terminal a raw-mode program reads and draws on. */
  private terminal(): Terminal {
    const raw = (this.raw = []);
    return {
      rows: 24,
      cols: 80,
      write: (text) => {
        if (this.o.streams.stdout && text) this.o.write(1, text);
      },
      read: async () => {
        while (raw.length === 0) {
          if (this.ended.signal.aborted) return undefined;
          await new Promise<void>((r) => (this.rawWake = r));
          this.rawWake = undefined;
        }
        return raw.shift();
      },
    };
  }

  private push(events: LineEvent[]): void {
    for (const e of events) {
      // ^C reaches the foreground command at once and flushes typed-ahead input, as the tty driver does.
      if (e.type === 'interrupt' && this.running) {
        this.running.abort();
        this.queue.length = 0;
        continue;
      }
      this.queue.push(e);
    }
    this.wake?.();
  }

  private async next(): Promise<LineEvent | undefined> {
    while (this.queue.length === 0) {
      if (this.ended.signal.aborted) return undefined;
      await new Promise<void>((r) => (this.wake = r));
      this.wake = undefined;
    }
    return this.queue.shift();
  }

  private async exec(argv: string[], extra: { stdin?: Uint8Array; env?: Record<string, string>; cwd?: string; terminal?: Terminal } = {}): Promise<{ exitCode: number; env: Record<string, string> }> {
    const ctl = new AbortController();
    this.running = ctl;
    try {
      const r = await this.o.target.execStream(argv, { output: this.output, signal: AbortSignal.any([ctl.signal, this.ended.signal]), ...extra });
      // ^C: the shell reports 130 (128 + SIGINT).
      return ctl.signal.aborted ? { ...r, exitCode: 130 } : r;
    } finally {
      this.running = undefined;
    }
  }

  /** Runs the exec to its end; resolves with the exit code. */
  async run(): Promise<number> {
    const { streams, argv } = this.o;
    if (this.interactive) return this.repl();
    if (streams.tty && streams.stdin && isTerminalProgram(argv)) return (await this.exec(argv, { terminal: this.terminal() })).exitCode;
    if (streams.stdin && !streams.tty && !this.stdinClosed) {
      await new Promise<void>((r) => (this.stdinDone = r));
      if (this.ended.signal.aborted) return 137;
    }
    if (this.stdinOverflow) {
      this.output('stderr', `${basename(argv[0] ?? 'sh')}: write error: No space left on device\n`);
      return 1;
    }
    return (await this.exec(argv, streams.stdin && !streams.tty ? { stdin: Buffer.concat(this.stdin, this.stdinBytes) } : {})).exitCode;
  }

  private async repl(): Promise<number> {
    const tty = this.o.streams.tty;
    const prompt = this.o.prompt ?? (() => '# ');
    let env: Record<string, string> | undefined;
    let cwd = this.o.target.execCwd;
    let status = 0;
    let pending = '';
    const show = (text: string) => {
      if (tty && this.o.streams.stdout) this.o.write(1, text);
    };
    const ask = (text: string) => {
      show(text);
      this.shownPrompt = tty ? text : undefined;
    };
    ask(prompt(cwd));
    for (;;) {
      const e = await this.next();
      this.shownPrompt = undefined;
      if (!e) return 137;
      if (e.type === 'eof') {
        if (pending) status = (await this.exec(['sh', '-c', pending], { ...(env ? { env } : {}), cwd })).exitCode;
        show('\r\n');
        return status;
      }
      if (e.type === 'interrupt') {
        pending = '';
        ask(prompt(cwd));
        continue;
      }
      pending = pending ? `${pending}\n${e.text}` : e.text;
      if (isIncomplete(pending)) {
        ask('> ');
        continue;
      }
      const line = pending;
      pending = '';
      if (line.trim()) {
        // `$?` is the previous line's status: each line runs as its own script, so it is set first.
        const r = await this.exec(['sh', '-c', status ? `(exit ${status})\n${line}` : line], { ...(env ? { env } : {}), cwd });
        status = r.exitCode;
        if (exitsShell(line) && status !== 130) return status;
        // An interrupted line leaves the shell's variables and directory as they were.
        if (status !== 130) {
          env = r.env;
          cwd = r.env?.PWD || cwd;
        }
      }
      ask(prompt(cwd));
    }
  }
}

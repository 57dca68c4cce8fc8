// busybox vi, the core of it: enough to edit a file over `kubectl exec -it`.
// Command mode (h j k l and the arrow keys, 0 $ G, x, dd, i a A I o O, ZZ),
// insert mode (typing, Enter, Backspace, Esc) and ex commands (:w :q :wq :x
// :q! :w FILE). The screen is redrawn whole after each batch of keys. Without
// a terminal the keys come from stdin (`printf 'ihi\033:wq\n' | vi f`).
// Also the prompt line of programs with a REPL (redis-cli).

import { posix } from 'node:path';
import { defineCommand, type Command } from 'just-bash';
import { TTY_VAR, type ProgramProcess, type Terminal } from '../program-process.js';
import { ok } from './util.js';

/** Splits typed input into keys: an escape sequence (arrow keys) is one key, a lone ESC another. */
export function splitKeys(input: string): string[] {
  const keys: string[] = [];
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (c === '\x1b' && (input[i + 1] === '[' || input[i + 1] === 'O')) {
      let j = i + 2;
      while (j < input.length && !(input[j]! >= '@' && input[j]! <= '~')) j++;
      keys.push(input.slice(i, j + 1));
      i = j;
    } else keys.push(c);
  }
  return keys;
}

const UP = new Set(['\x1b[A', '\x1bOA', 'k']);
const DOWN = new Set(['\x1b[B', '\x1bOB', 'j']);
const RIGHT = new Set(['\x1b[C', '\x1bOC', 'l', ' ']);
const LEFT = new Set(['\x1b[D', '\x1bOD', 'h']);
const ARROW = new RegExp(String.raw`^\x1b[[O][ABCD]$`);

/** One editing session's state; `key` takes each key, `screen` draws it. */
export class ViBuffer {
  lines: string[];
  row = 0;
  col = 0;
  top = 0;
  mode: 'command' | 'insert' | 'ex' = 'command';
  ex = '';
  status: string;
  modified = false;
  /** Set when the editor is done: the exit status. */
  quit: number | undefined;
  private pending = '';

  constructor(
    readonly path: string,
    text: string | undefined,
    private readonly save: (path: string, text: string) => Promise<string | undefined>,
    readonly rows = 24,
    readonly cols = 80,
  ) {
    this.lines = text === undefined || text === '' ? [''] : text.replace(/\n$/, '').split('\n');
    this.status = text === undefined ? `"${path}" [New file]` : `"${path}" ${this.lines.length}L, ${text.length}C`;
  }

  private get line(): string {
    return this.lines[this.row]!;
  }

  private clampCol(insert: boolean): void {
    const max = Math.max(0, this.line.length - (insert ? 0 : 1));
    this.col = Math.min(Math.max(0, this.col), max);
  }

  private move(key: string, insert: boolean): boolean {
    if (UP.has(key) && (insert ? ARROW.test(key) : true)) this.row = Math.max(0, this.row - 1);
    else if (DOWN.has(key) && (insert ? ARROW.test(key) : true)) this.row = Math.min(this.lines.length - 1, this.row + 1);
    else if (RIGHT.has(key) && (insert ? ARROW.test(key) : true)) this.col++;
    else if (LEFT.has(key) && (insert ? ARROW.test(key) : true)) this.col--;
    else return false;
    this.clampCol(insert);
    return true;
  }

  async key(key: string): Promise<void> {
    if (this.mode === 'insert') return this.insertKey(key);
    if (this.mode === 'ex') return this.exKey(key);
    if (this.pending) {
      const cmd = this.pending + key;
      this.pending = '';
      if (cmd === 'dd') {
        this.lines.splice(this.row, 1);
        if (this.lines.length === 0) this.lines.push('');
        this.row = Math.min(this.row, this.lines.length - 1);
        this.col = 0;
        this.modified = true;
      } else if (cmd === 'ZZ') await this.exCommand('x');
      else if (cmd === 'gg') this.row = this.col = 0;
      return;
    }
    if (this.move(key, false)) return;
    switch (key) {
      case 'i':
        this.mode = 'insert';
        break;
      case 'a':
        this.mode = 'insert';
        this.col = Math.min(this.col + 1, this.line.length);
        break;
      case 'A':
        this.mode = 'insert';
        this.col = this.line.length;
        break;
      case 'I':
        this.mode = 'insert';
        this.col = 0;
        break;
      case 'o':
      case 'O':
        this.row += key === 'o' ? 1 : 0;
        this.lines.splice(this.row, 0, '');
        this.col = 0;
        this.mode = 'insert';
        this.modified = true;
        break;
      case 'x':
        if (this.line.length) {
          this.lines[this.row] = this.line.slice(0, this.col) + this.line.slice(this.col + 1);
          this.modified = true;
          this.clampCol(false);
        }
        break;
      case '0':
        this.col = 0;
        break;
      case '$':
        this.col = Math.max(0, this.line.length - 1);
        break;
      case 'G':
        this.row = this.lines.length - 1;
        this.col = 0;
        break;
      case 'd':
      case 'Z':
      case 'g':
        this.pending = key;
        break;
      case ':':
        this.mode = 'ex';
        this.ex = '';
        break;
      default:
        break;
    }
    if (this.mode === 'insert') this.status = '-- INSERT --';
  }

  private insertKey(key: string): void {
    if (key === '\x1b') {
      this.mode = 'command';
      this.status = '';
      this.col = Math.max(0, this.col - 1);
      return;
    }
    if (this.move(key, true)) return;
    if (key === '\r' || key === '\n') {
      this.lines.splice(this.row + 1, 0, this.line.slice(this.col));
      this.lines[this.row] = this.line.slice(0, this.col);
      this.row++;
      this.col = 0;
    } else if (key === '\x7f' || key === '\b') {
      if (this.col > 0) {
        this.lines[this.row] = this.line.slice(0, this.col - 1) + this.line.slice(this.col);
        this.col--;
      } else if (this.row > 0) {
        const prev = this.lines[this.row - 1]!;
        this.lines.splice(this.row - 1, 2, prev + this.line);
        this.row--;
        this.col = prev.length;
      }
    } else if (key.length === 1 && (key >= ' ' || key === '\t')) {
      this.lines[this.row] = this.line.slice(0, this.col) + key + this.line.slice(this.col);
      this.col++;
    } else return;
    this.modified = true;
  }

  private async exKey(key: string): Promise<void> {
    if (key === '\x1b' || ((key === '\x7f' || key === '\b') && this.ex === '')) {
      this.mode = 'command';
      this.status = '';
    } else if (key === '\x7f' || key === '\b') this.ex = this.ex.slice(0, -1);
    else if (key === '\r' || key === '\n') {
      this.mode = 'command';
      await this.exCommand(this.ex.trim());
    } else if (key.length === 1 && key >= ' ') this.ex += key;
  }

  private async exCommand(cmd: string): Promise<void> {
    const m = /^(w|wq|x|q|wq!|w!|q!|x!)(?:\s+(\S+))?$/.exec(cmd);
    if (!m) {
      this.status = cmd ? `:${cmd} is not implemented` : '';
      return;
    }
    const [, verb, file] = m;
    if (verb!.startsWith('w') || (verb!.startsWith('x') && this.modified)) {
      const target = file ?? this.path;
      const text = this.lines.length === 1 && this.lines[0] === '' ? '' : `${this.lines.join('\n')}\n`;
      const err = await this.save(target, text);
      if (err) {
        this.status = `"${target}" ${err}`;
        return;
      }
      this.status = `"${target}" ${this.lines.length}L, ${text.length}C written`;
      if (target === this.path) this.modified = false;
    }
    if (verb === 'q' && this.modified) {
      this.status = 'No write since last change (:quit! overrides)';
      return;
    }
    if (verb !== 'w' && verb !== 'w!') this.quit = 0;
  }

  /** The whole screen: text rows (`~` past the end), the status row, then the cursor. */
  screen(): string {
    const textRows = this.rows - 1;
    if (this.row < this.top) this.top = this.row;
    if (this.row >= this.top + textRows) this.top = this.row - textRows + 1;
    let out = '\x1b[H\x1b[J';
    for (let r = 0; r < textRows; r++) {
      const l = this.lines[this.top + r];
      out += `${l === undefined ? '~' : l.slice(0, this.cols)}\r\n`;
    }
    out += this.mode === 'ex' ? `:${this.ex}` : this.status.slice(0, this.cols - 1);
    if (this.mode !== 'ex') out += `\x1b[${this.row - this.top + 1};${Math.min(this.col, this.cols - 1) + 1}H`;
    return out;
  }
}

/** `vi [FILE]`: edits on the exec's terminal, or with keys from stdin when there is none. */
export function vi(proc: ProgramProcess): Command {
  return defineCommand('vi', async (args, ctx) => {
    const file = args.find((a) => !a.startsWith('-')) ?? '';
    const path = file ? posix.resolve(ctx.cwd, file) : '';
    let text: string | undefined;
    if (path) {
      try {
        text = await proc.fs.readFile(path);
      } catch {
        text = undefined;
      }
    }
    const save = async (p: string, t: string) => {
      if (!p) return 'No current filename';
      try {
        await proc.fs.writeFile(posix.resolve(ctx.cwd, p), t);
        return undefined;
      } catch (e) {
        const err = e as { message?: string; code?: string };
        return err.code === 'EROFS' || /Read-only/.test(err.message ?? '') ? 'Read-only file system' : 'No such file or directory';
      }
    };
    const term: Terminal | undefined = proc.terminal(ctx.env.get(TTY_VAR));
    const buf = new ViBuffer(file, text, save, term?.rows, term?.cols);
    if (!term) {
      for (const k of splitKeys(ctx.stdin.toString())) {
        await buf.key(k);
        if (buf.quit !== undefined) break;
      }
      return ok('', buf.quit ?? 0);
    }
    term.write(buf.screen());
    for (;;) {
      const input = await term.read();
      if (input === undefined) return ok('', 1);
      for (const k of splitKeys(input)) {
        await buf.key(k);
        if (buf.quit !== undefined) break;
      }
      if (buf.quit !== undefined) {
        // Leaves the cursor on the last row, cleared, as the editor exits.
        term.write(`\x1b[${buf.rows};1H\x1b[K`);
        return ok('', buf.quit);
      }
      term.write(buf.screen());
    }
  });
}

/**
 * Reads one line on a terminal after `prompt`, echoing as a line editor does:
 * Backspace, ^U; escape sequences are ignored. Undefined on ^C or ^D at an
 * empty line, or when input closes.
 */
export async function readLine(term: Terminal, prompt: string, pending: string[]): Promise<string | undefined> {
  term.write(prompt);
  let line = '';
  for (;;) {
    if (pending.length === 0) {
      const input = await term.read();
      if (input === undefined) return undefined;
      pending.push(...splitKeys(input));
      continue;
    }
    const k = pending.shift()!;
    if (k === '\r' || k === '\n') {
      term.write('\r\n');
      return line;
    }
    if (k === '\x03' || (k === '\x04' && line === '')) {
      term.write('\r\n');
      return undefined;
    }
    if (k === '\x7f' || k === '\b') {
      if (line) {
        line = line.slice(0, -1);
        term.write('\b \b');
      }
    } else if (k === '\x15') {
      term.write('\b \b'.repeat(line.length));
      line = '';
    } else if (k.length === 1 && k >= ' ') {
      line += k;
      term.write(k);
    }
  }
}

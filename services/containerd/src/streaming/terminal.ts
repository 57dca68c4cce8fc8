// The line discipline of an exec's terminal, as the kernel's tty does it in
// canonical mode (echo, erase, kill line, ^C, ^D at the start of a line) for
// the simulated shell, which takes whole lines: with a tty the session gets
// `line` events and the text to echo; without one, input is split into lines
// and nothing is echoed. Escape sequences (arrow keys) are swallowed: there
// is no line editing or history.

export type LineEvent = { type: 'line'; text: string } | { type: 'interrupt' } | { type: 'eof' };

export class LineDiscipline {
  private buf = '';
  private lastCR = false;
  /** 0: text; 1: after ESC; 2: inside a CSI/SS3 sequence. */
  private esc = 0;

  constructor(private readonly tty: boolean) {}

  /** Feeds input; returns what the terminal echoes and the events, in order. */
  feed(input: string): { echo: string; events: LineEvent[] } {
    if (!this.tty) return { echo: '', events: this.feedRaw(input) };
    let echo = '';
    const events: LineEvent[] = [];
    for (const ch of input) {
      if (this.esc === 1) {
        this.esc = ch === '[' || ch === 'O' ? 2 : 0;
        continue;
      }
      if (this.esc === 2) {
        if (ch >= '@' && ch <= '~') this.esc = 0;
        continue;
      }
      const wasCR = this.lastCR;
      this.lastCR = ch === '\r';
      switch (ch) {
        case '\x1b':
          this.esc = 1;
          break;
        case '\r':
        case '\n':
          if (ch === '\n' && wasCR) break;
          echo += '\r\n';
          events.push({ type: 'line', text: this.buf });
          this.buf = '';
          break;
        case '\x7f':
        case '\b':
          if (this.buf) {
            this.buf = [...this.buf].slice(0, -1).join('');
            echo += '\b \b';
          }
          break;
        case '\x15':
          echo += '\b \b'.repeat([...this.buf].length);
          this.buf = '';
          break;
        case '\x03':
          echo += '^C\r\n';
          this.buf = '';
          events.push({ type: 'interrupt' });
          break;
        case '\x04':
          if (!this.buf) events.push({ type: 'eof' });
          break;
        default:
          if (ch < ' ' && ch !== '\t') break;
          this.buf += ch;
          echo += ch;
      }
    }
    return { echo, events };
  }

  private feedRaw(input: string): LineEvent[] {
    this.buf += input;
    const events: LineEvent[] = [];
    for (let nl = this.buf.indexOf('\n'); nl >= 0; nl = this.buf.indexOf('\n')) {
      events.push({ type: 'line', text: this.buf.slice(0, nl).replace(/\r$/, '') });
      this.buf = this.buf.slice(nl + 1);
    }
    return events;
  }

  /** Input closed: a last unterminated line, then eof. */
  end(): LineEvent[] {
    const events: LineEvent[] = this.buf ? [{ type: 'line', text: this.buf }] : [];
    this.buf = '';
    return [...events, { type: 'eof' }];
  }
}

/** Output on a terminal: the tty turns `\n` into `\r\n` (ONLCR). */
export function toTerminal(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

// The system log monitor's ring of recent lines (upstream
// pkg/systemlogmonitor/log_buffer.go): a rule's pattern is matched against
// the last N lines joined by "\n" and must end at the newest line, so one
// pattern can span lines (the older OOM rule: "Kill process …\nKilled
// process …"). The lines a match covers become the event's message.

import type { LogLine } from './types.js';

export interface Pattern {
  readonly source: string;
  readonly regexp: RegExp;
  /** The pattern cannot match a newline: only the newest line needs matching (upstream's lastLineOnly). */
  readonly lastLineOnly: boolean;
}

/**
 * Whether a pattern can never match a newline, decided conservatively from its
 * text: only escapes that exclude "\n" (\d \w \S \b and escaped punctuation),
 * no negated class, no anchors or lookbehind that would see earlier lines.
 */
export function cannotSpanLines(expr: string): boolean {
  // `\\` is a literal backslash, not the start of an escape; a final `$` is the end anchor the buffer adds anyway.
  const text = expr.replace(/\\\\/g, '').replace(/([^\\])\$$/, '$1');
  // A raw newline, or an escape that may match one (\n \s \W \D \x0a \u000a \cJ …).
  if (text.includes('\n') || /\\[^dwSb.[\](){}*+?|\-/:#=!<>,"'& ]/.test(text)) return false;
  // Negated classes, anchors, lookbehind and inline groups other than (?:) may see or match across lines.
  return !/\[\^|\^|\$|\(\?(?!:)/.test(text);
}

/**
 * Compiles a rule's RE2 pattern, anchored at the end of the buffer as
 * upstream's `\z` (JavaScript's `$` without the m flag: the very end).
 */
export function compilePattern(expr: string): Pattern {
  try {
    new RegExp(expr);
    return { source: expr, regexp: new RegExp(`(?:${expr})$`), lastLineOnly: cannotSpanLines(expr) };
  } catch (err) {
    throw new Error(`error parsing regexp: ${(err as Error).message}: \`${expr}\``, { cause: err });
  }
}

export class LogBuffer {
  private readonly lines: (LogLine | undefined)[];
  private current = 0;

  constructor(readonly max: number) {
    this.lines = new Array<LogLine | undefined>(max).fill(undefined);
  }

  push(line: LogLine): void {
    this.lines[this.current % this.max] = line;
    this.current++;
  }

  /** The oldest-first joined text, an empty string per slot not yet filled (as upstream's ring). */
  private joined(): string {
    const head = this.current % this.max;
    return [...this.lines.slice(head), ...this.lines.slice(0, head)].map((l) => l?.message ?? '').join('\n');
  }

  /** The lines (oldest first) that the pattern's match ending at the newest line covers; [] when it does not match. */
  match(p: Pattern): LogLine[] {
    if (p.lastLineOnly) {
      const last = this.current > 0 ? this.lines[(this.current - 1) % this.max] : undefined;
      return last && p.regexp.test(last.message) ? [last] : [];
    }
    const text = this.joined();
    const m = p.regexp.exec(text);
    if (!m) return [];
    // Walk back from the newest line until the lines cover where the match starts.
    const fromEnd = text.length - m.index - 1;
    const out: LogLine[] = [];
    let total = 0;
    for (let i = this.current + this.max - 1; i >= this.current; i--) {
      const line = this.lines[i % this.max];
      if (!line) break;
      out.push(line);
      total += line.message.length + 1;
      if (total > fromEnd) break;
    }
    return out.reverse();
  }
}

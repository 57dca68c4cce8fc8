import { describe, expect, it } from 'vitest';
import { LineDiscipline, toTerminal } from './terminal.js';

describe('LineDiscipline with a tty', () => {
  const cases: { name: string; input: string[]; echo: string; events: unknown[] }[] = [
    { name: 'echoes typed text and submits on Enter (CR)', input: ['ls -l\r'], echo: 'ls -l\r\n', events: [{ type: 'line', text: 'ls -l' }] },
    {
      name: 'a pasted CRLF is one line break',
      input: ['a\r\nb\r'],
      echo: 'a\r\nb\r\n',
      events: [
        { type: 'line', text: 'a' },
        { type: 'line', text: 'b' },
      ],
    },
    { name: 'backspace erases the last character', input: ['lx', '\x7f', 's\r'], echo: 'lx\b \bs\r\n', events: [{ type: 'line', text: 'ls' }] },
    { name: 'backspace on an empty line does nothing', input: ['\x7f\r'], echo: '\r\n', events: [{ type: 'line', text: '' }] },
    { name: 'Ctrl-U kills the line', input: ['abc\x15pwd\r'], echo: 'abc\b \b\b \b\b \bpwd\r\n', events: [{ type: 'line', text: 'pwd' }] },
    { name: 'Ctrl-C abandons the line', input: ['sleep\x03'], echo: 'sleep^C\r\n', events: [{ type: 'interrupt' }] },
    { name: 'Ctrl-D at the start of a line is end of input', input: ['\x04'], echo: '', events: [{ type: 'eof' }] },
    { name: 'Ctrl-D inside a line is ignored', input: ['ab\x04\r'], echo: 'ab\r\n', events: [{ type: 'line', text: 'ab' }] },
    { name: 'arrow keys (escape sequences) are swallowed', input: ['\x1b[A\x1bOBok\r'], echo: 'ok\r\n', events: [{ type: 'line', text: 'ok' }] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const d = new LineDiscipline(true);
      let echo = '';
      const events: unknown[] = [];
      for (const chunk of c.input) {
        const r = d.feed(chunk);
        echo += r.echo;
        events.push(...r.events);
      }
      expect(echo).toBe(c.echo);
      expect(events).toEqual(c.events);
    });
  }
});

describe('LineDiscipline without a tty', () => {
  it('splits lines across chunks, echoes nothing, and hands over the last partial line at the end', () => {
    const d = new LineDiscipline(false);
    expect(d.feed('echo a\nech')).toEqual({ echo: '', events: [{ type: 'line', text: 'echo a' }] });
    expect(d.feed('o b\r\nexit')).toEqual({ echo: '', events: [{ type: 'line', text: 'echo b' }] });
    expect(d.end()).toEqual([{ type: 'line', text: 'exit' }, { type: 'eof' }]);
  });
});

it('toTerminal turns newlines into CRLF once', () => {
  expect(toTerminal('a\nb\r\nc')).toBe('a\r\nb\r\nc');
});

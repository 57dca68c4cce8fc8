import { describe, expect, it } from 'vitest';
import { createLogger, parseLogLevel, type LoggerOptions } from './logs.js';

const capture = (o: Partial<LoggerOptions> = {}) => {
  const lines: string[] = [];
  const log = createLogger({ component: 'test', format: 'text', write: (l) => lines.push(l), ...o });
  return { log, lines };
};

describe('createLogger', () => {
  it('names the calling file and line in the klog header', () => {
    const { log, lines } = capture();
    // The stack and the log call on one line: the header must name that line.
    const [here] = [new Error().stack!.split('\n')[1]!, log.info('hello', { k: 'v' })];
    const line = /logs\.test\.ts:(\d+)/.exec(here)![1];
    expect(lines[0]).toMatch(new RegExp(`^I\\d{4} \\d\\d:\\d\\d:\\d\\d\\.\\d{6} +${process.pid} logs\\.test\\.ts:${line}\\] "hello" k="v"$`));
  });

  it('severity letters: W for warn, E for error', () => {
    const { log, lines } = capture();
    log.warn('w');
    log.error('e', { err: new Error('boom') });
    expect(lines.map((l) => l[0])).toEqual(['W', 'E']);
    expect(lines[1]).toMatch(/"e" err="boom"$/);
  });

  it('verbosity gates v(n) and debug (V(4))', () => {
    const at = (verbosity: number) => {
      const { log, lines } = capture({ verbosity });
      log.v(2).info('two');
      log.debug('four');
      log.info('zero');
      return lines.map((l) => /"(\w+)"/.exec(l)![1]);
    };
    expect(at(0)).toEqual(['zero']);
    expect(at(2)).toEqual(['two', 'zero']);
    expect(at(4)).toEqual(['two', 'four', 'zero']);
    const { log, lines } = capture({ level: 'debug' });
    log.debug('d');
    expect(lines).toHaveLength(1);
  });

  it('level error silences info and warn', () => {
    const { log, lines } = capture({ level: 'error', verbosity: 9 });
    log.info('i');
    log.v(1).info('i');
    log.warn('w');
    log.error('e');
    expect(lines).toHaveLength(1);
  });

  it('with() puts its fields before the call fields', () => {
    const { log, lines } = capture();
    log.with({ a: 1 }).info('m', { b: 2 });
    expect(lines[0]).toMatch(/"m" a=1 b=2$/);
  });

  it('json: ts, caller of the call, msg, v', () => {
    const { log, lines } = capture({ format: 'json', verbosity: 3 });
    log.v(3).info('m', { x: 'y' });
    const rec = JSON.parse(lines[0]!);
    expect(rec).toMatchObject({ msg: 'm', v: 3, x: 'y' });
    expect(rec.caller).toMatch(/^logs\.test\.ts:\d+$/);
    expect(typeof rec.ts).toBe('number');
  });

  it('logrus style writes containerd lines', () => {
    const { log, lines } = capture({ style: 'logrus' });
    log.warn('hm', { id: 'abc' });
    expect(lines[0]).toMatch(/^time="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z" level=warning msg=hm id=abc$/);
  });

  it.each([
    [undefined, {}],
    ['debug', { level: 'debug' }],
    ['2', { verbosity: 2 }],
    ['loud', {}],
  ])('KUBELAB_LOG_LEVEL=%s', (raw, want) => {
    expect(parseLogLevel(raw)).toEqual(want);
  });
});

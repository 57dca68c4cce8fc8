import { describe, expect, it } from 'vitest';
import { kObj, kObjSlice, kRef, klogJsonLine, klogLine, klogValue, logrusJsonLine, logrusTextLine, rfc3339Nano } from './format.js';

// 2026-12-01T13:33:15.123456Z in epoch ms with a µs fraction.
const T = Date.UTC(2026, 11, 1, 13, 33, 15, 123) + 0.456;

describe('klog text format', () => {
  it('writes the header, the quoted message and key/values', () => {
    expect(klogLine('I', T, 312, 'kubelet.go:123', 'SyncLoop ADD', { source: 'api', pods: kObjSlice([{ metadata: { namespace: 'default', name: 'web' } }]) })).toBe(
      'I1201 13:33:15.123456     312 kubelet.go:123] "SyncLoop ADD" source="api" pods=["default/web"]',
    );
    expect(klogLine('E', T, 7, 'x.ts:1', 'failed', { err: new Error('boom "x"') })).toBe('E1201 13:33:15.123456       7 x.ts:1] "failed" err="boom \\"x\\""');
  });

  it.each([
    ['a string is quoted', 'web', '"web"'],
    ['an empty string is quoted', '', '""'],
    ['a number is bare', 30, '30'],
    ['a float is bare', 0.5, '0.5'],
    ['a bool is bare', true, 'true'],
    ['an error is its quoted message', new Error('no such file'), '"no such file"'],
    ['an object ref is quoted ns/name', kRef('default', 'web'), '"default/web"'],
    ['a cluster-scoped ref is its name', kObj({ metadata: { name: 'node-1' } }), '"node-1"'],
    ['a ref slice is a bracketed list', kObjSlice([{ metadata: { namespace: 'a', name: 'x' } }, { metadata: { namespace: 'b', name: 'y' } }]), '["a/x" "b/y"]'],
    ['an empty ref slice', kObjSlice([]), '[]'],
    ['null is <nil>', null, '<nil>'],
    ['a multi-line string is indented', 'line 1\nline 2', '<\n\tline 1\n\tline 2\n >'],
    ['a trailing newline is not doubled', 'out\n', '<\n\tout\n >'],
  ])('%s', (_name, v, want) => {
    expect(klogValue(v)).toBe(want);
  });
});

describe('component-base JSON format', () => {
  it('writes ts in seconds, caller, msg, v and the fields', () => {
    expect(JSON.parse(klogJsonLine(T, 'kubelet.go:9', 'Pod status', 0, { pod: kRef('default', 'web'), ready: true }))).toEqual({
      ts: T / 1000,
      caller: 'kubelet.go:9',
      msg: 'Pod status',
      v: 0,
      pod: { name: 'web', namespace: 'default' },
      ready: true,
    });
  });
  it('an error line has err and no v', () => {
    expect(klogJsonLine(T, 'a.ts:1', 'failed', undefined, { err: new Error('boom') })).toBe(`{"ts":${T / 1000},"caller":"a.ts:1","msg":"failed","err":"boom"}`);
  });
});

describe('logrus formats (containerd)', () => {
  it('RFC3339Nano drops trailing zeros', () => {
    expect(rfc3339Nano(T)).toBe('2026-12-01T13:33:15.123456Z');
    expect(rfc3339Nano(Date.UTC(2026, 0, 2, 3, 4, 5, 100))).toBe('2026-01-02T03:04:05.1Z');
    expect(rfc3339Nano(Date.UTC(2026, 0, 2, 3, 4, 5))).toBe('2026-01-02T03:04:05Z');
  });
  it('text: time, level, msg, then sorted fields; bare values unquoted, errors as error=', () => {
    expect(logrusTextLine(T, 'info', 'RunPodSandbox for &PodSandboxMetadata{Name:web,}', {})).toBe(
      'time="2026-12-01T13:33:15.123456Z" level=info msg="RunPodSandbox for &PodSandboxMetadata{Name:web,}"',
    );
    expect(logrusTextLine(T, 'error', 'failed', { z: 'a b', a: 'plain', err: new Error('x') })).toBe('time="2026-12-01T13:33:15.123456Z" level=error msg=failed a=plain error=x z="a b"');
  });
  it('json: keys sorted', () => {
    expect(logrusJsonLine(T, 'warning', 'hm', { b: 1 })).toBe('{"b":1,"level":"warning","msg":"hm","time":"2026-12-01T13:33:15.123456Z"}');
  });
});

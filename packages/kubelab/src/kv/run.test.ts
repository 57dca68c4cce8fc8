import { describe, expect, it } from 'vitest';
import { formatGet, parseKvArgs } from './run.js';

describe('kv get output', () => {
  const value = Buffer.concat([Buffer.from('k8s:enc:aescbc:v1:key1:'), Buffer.from([0x00, 0xff, 0x0a])]);

  it('is the key line, the stored bytes and a newline, as etcdctl get prints', () => {
    expect(formatGet('/registry/secrets/default/db', value, { hex: false, printValueOnly: false })).toEqual(Buffer.concat([Buffer.from('/registry/secrets/default/db\n'), value, Buffer.from('\n')]));
    expect(formatGet('/k', value, { hex: false, printValueOnly: true })).toEqual(Buffer.concat([value, Buffer.from('\n')]));
  });

  it('--hex is that output through hexdump -C', () => {
    expect(formatGet('/registry/secrets/default/db', value, { hex: true, printValueOnly: false }).toString()).toBe(
      [
        '00000000  2f 72 65 67 69 73 74 72  79 2f 73 65 63 72 65 74  |/registry/secret|',
        '00000010  73 2f 64 65 66 61 75 6c  74 2f 64 62 0a 6b 38 73  |s/default/db.k8s|',
        '00000020  3a 65 6e 63 3a 61 65 73  63 62 63 3a 76 31 3a 6b  |:enc:aescbc:v1:k|',
        '00000030  65 79 31 3a 00 ff 0a 0a                           |ey1:....|',
        '00000038',
        '',
      ].join('\n'),
    );
  });
});

describe('kv arguments', () => {
  const env = {};
  it.each([
    [['get', '/registry/secrets/default/db', '--hex'], { op: 'get', key: '/registry/secrets/default/db', hex: true, printValueOnly: false, bucket: 'kubelab', natsUrl: 'nats://10.0.0.1:4222' }],
    [['ls', '/registry/secrets/', '--bucket', 'other'], { op: 'ls', prefix: '/registry/secrets/', bucket: 'other', natsUrl: 'nats://10.0.0.1:4222' }],
    [['ls'], { op: 'ls', prefix: '', bucket: 'kubelab', natsUrl: 'nats://10.0.0.1:4222' }],
  ])('%j', (argv, want) => {
    expect(parseKvArgs([...argv, '--nats-url=nats://10.0.0.1:4222'], env)).toEqual(want);
  });

  it.each([
    [['get'], 'kv get takes one key'],
    [['get', 'a', 'b'], 'kv get takes one key'],
    [['rm', 'a'], 'unknown kv command "rm"'],
    [[], 'usage: pnpm kubelab kv get KEY'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseKvArgs([...argv, '--nats-url=nats://x:1'], env)).toThrow(message);
  });
});

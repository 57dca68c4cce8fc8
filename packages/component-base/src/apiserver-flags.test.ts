import { describe, expect, it } from 'vitest';
import { apiserverAddressFrom, withApiserverFlags } from './apiserver-flags.js';
import { FlagSet } from './flags.js';

const parse = (argv: string[], env: NodeJS.ProcessEnv = {}) => apiserverAddressFrom(withApiserverFlags(new FlagSet('kube-scheduler')).parse(argv, env).values);

describe('--apiserver-grpc-address', () => {
  it.each<[string, string[], NodeJS.ProcessEnv, string]>([
    ['defaults to the local apiserver', [], {}, '127.0.0.1:6444'],
    ['the flag', ['--apiserver-grpc-address=apiserver:6444'], {}, 'apiserver:6444'],
    ['its environment variable', [], { KUBELAB_APISERVER_GRPC_ADDRESS: 'apiserver:6444' }, 'apiserver:6444'],
    ['the --apiserver alias', ['--apiserver', '10.0.0.1:6444'], {}, '10.0.0.1:6444'],
    ['--master overrides it, as upstream', ['--apiserver-grpc-address=a:1', '--master=b:2'], {}, 'b:2'],
  ])('%s', (_name, argv, env, want) => {
    expect(parse(argv, env)).toBe(want);
  });
});

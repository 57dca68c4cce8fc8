// kubelab components have no kubeconfig: every one that talks to the
// apiserver takes its gRPC address from --apiserver-grpc-address
// (env KUBELAB_APISERVER_GRPC_ADDRESS). --master keeps upstream's meaning
// (it overrides the kubeconfig's server); --apiserver is an older kubelab alias.

import type { FlagSet } from './flags.js';

export const DEFAULT_APISERVER_GRPC_ADDRESS = '127.0.0.1:6444';

/** Adds --apiserver-grpc-address and its aliases --master and --apiserver. */
export function withApiserverFlags<T extends Record<string, unknown>>(flags: FlagSet<T>) {
  return flags
    .string('apiserver-grpc-address', DEFAULT_APISERVER_GRPC_ADDRESS, "The apiserver's gRPC address (host:port), kubelab's stand-in for a kubeconfig")
    .string('master', '', 'The address of the apiserver (overrides --apiserver-grpc-address, as upstream --master overrides the kubeconfig)')
    .string('apiserver', '', 'kubelab alias of --apiserver-grpc-address');
}

export interface ApiserverFlagValues {
  'apiserver-grpc-address': string;
  master: string;
  apiserver: string;
}

/** The address to dial: --master, else --apiserver, else --apiserver-grpc-address. */
export function apiserverAddressFrom(values: ApiserverFlagValues): string {
  return values.master || values.apiserver || values['apiserver-grpc-address'] || DEFAULT_APISERVER_GRPC_ADDRESS;
}

// Every component that talks to the apiserver reads its identity (client
// certificate) and the CA to trust from --kubeconfig, as upstream; it dials
// the apiserver's gRPC port at --apiserver-grpc-address (env
// KUBELAB_APISERVER_GRPC_ADDRESS), since the kubeconfig's server is the REST
// URL. --master keeps upstream's meaning (it overrides the kubeconfig's
// server); --apiserver is an older kubelab alias.

import type { FlagSet } from './flags.js';

export const DEFAULT_APISERVER_GRPC_ADDRESS = '127.0.0.1:6444';

/** Adds --apiserver-grpc-address and its aliases --master and --apiserver. */
export function withApiserverFlags<T extends Record<string, unknown>>(flags: FlagSet<T>) {
  return flags
    .string('apiserver-grpc-address', DEFAULT_APISERVER_GRPC_ADDRESS, "The apiserver's gRPC address (host:port), kubelab's stand-in for a kubeconfig")
    .string('master', '', 'The address of the apiserver (overrides --apiserver-grpc-address, as upstream --master overrides the kubeconfig)')
    .string('apiserver', '', 'kubelab alias of --apiserver-grpc-address')
    .string('kubeconfig', '', 'Path to a kubeconfig file with the authorization information (client certificate) and the CA of the apiserver. Empty: an unauthenticated plain connection.');
}

export interface ApiserverFlagValues {
  'apiserver-grpc-address': string;
  kubeconfig: string;
  master: string;
  apiserver: string;
}

/** The address to dial: --master, else --apiserver, else --apiserver-grpc-address. */
export function apiserverAddressFrom(values: ApiserverFlagValues): string {
  return values.master || values.apiserver || values['apiserver-grpc-address'] || DEFAULT_APISERVER_GRPC_ADDRESS;
}

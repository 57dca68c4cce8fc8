// A failed TCP dial as Go's net package words it (`dial tcp 10.0.0.5:10250:
// connect: connection refused`): probe outputs, proxy errors and component
// statuses quote Go's text, so kubelab's read the same.

import { joinHostPort } from './host-port.js';

const GO_DIAL_ERRORS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connect: connection refused',
  EHOSTUNREACH: 'connect: no route to host',
  ENETUNREACH: 'connect: network is unreachable',
  ETIMEDOUT: 'i/o timeout',
};

/** Go's text for a dial to host:port that failed with Node's error `e`; undefined for an error that is not a known dial failure. */
export function tcpDialError(host: string, port: number | string, e: { code?: string | undefined }): string | undefined {
  const why = e.code ? GO_DIAL_ERRORS[e.code] : undefined;
  return why && `dial tcp ${joinHostPort(host, port)}: ${why}`;
}

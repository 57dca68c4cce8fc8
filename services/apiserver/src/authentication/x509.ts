// The x509 client-certificate authenticator (upstream: authentication/request/
// x509 with CommonNameUserConversion): the TLS layer has verified the chain
// against --client-ca-file; the subject's CN is the user, each O a group.

import type { PeerCertificate } from 'node:tls';
import { GROUP_AUTHENTICATED, type UserInfo } from '@kubelab/api';

const asList = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** The user a verified client certificate names, or undefined when it has no CN (upstream: "common name of client cert is empty"). */
export function userFromCertificate(cert: Pick<PeerCertificate, 'subject'>): UserInfo | undefined {
  const subject = cert.subject as unknown as Record<string, string | string[] | undefined> | undefined;
  const cn = asList(subject?.CN)[0];
  if (!cn) return undefined;
  const groups = asList(subject?.O);
  // upstream's AuthenticatedGroupAdder: every authenticated user is in system:authenticated.
  return { name: cn, groups: groups.includes(GROUP_AUTHENTICATED) ? groups : [...groups, GROUP_AUTHENTICATED] };
}

// The x509 client-certificate authenticator (upstream: authentication/request/
// x509 with CommonNameUserConversion): the TLS layer has verified the chain
// against --client-ca-file; the subject's CN is the user, each O a group.

import type { PeerCertificate } from 'node:tls';
import { withAuthenticatedGroup, type UserInfo } from '@kubelab/api';

const asList = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Users by certificate object (a REST connection's memoized certificate) and by subject (gRPC parses one per call). */
const byCertificate = new WeakMap<object, UserInfo>();
const bySubject = new Map<string, UserInfo>();
/** Most subjects remembered before the memo starts over (identities are few: components, nodes, admins). */
const MAX_SUBJECTS = 1_000;

/**
 * The user a verified client certificate names, or undefined when it has no
 * CN (upstream: "common name of client cert is empty"). One identity is one
 * frozen object for every request it makes, so what is remembered per user
 * (API Priority and Fairness's routes) is found again.
 */
export function userFromCertificate(cert: Pick<PeerCertificate, 'subject'>): UserInfo | undefined {
  const known = byCertificate.get(cert);
  if (known) return known;
  const subject = cert.subject as unknown as Record<string, string | string[] | undefined> | undefined;
  const cn = asList(subject?.CN)[0];
  if (!cn) return undefined;
  const groups = asList(subject?.O);
  // Length-prefixed: a name may hold any character, and no two subjects may share a key.
  let key = `${cn.length}:${cn}`;
  for (const g of groups) key += `${g.length}:${g}`;
  let user = bySubject.get(key);
  if (!user) {
    const added = withAuthenticatedGroup({ name: cn, groups: [...groups] });
    user = Object.freeze({ name: cn, groups: Object.freeze([...added.groups]) });
    if (bySubject.size >= MAX_SUBJECTS) bySubject.clear();
    bySubject.set(key, user);
  }
  byCertificate.set(cert, user);
  return user;
}

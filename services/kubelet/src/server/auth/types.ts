// The kubelet API's authentication and authorization contracts (upstream:
// k8s.io/apiserver's authenticator.Request, authorizer.Attributes and
// authorizer.Authorizer, as pkg/kubelet/server's AuthInterface composes them).

import type { UserInfo } from '@kubelab/api';

/** Who a request is: @kubelab/api's user.Info, the apiserver's too. */
export type { UserInfo };

/** What a request asks to do, as a SubjectAccessReview's resourceAttributes name it. */
export interface Attributes {
  user: UserInfo;
  verb: string;
  namespace: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  name: string;
  /** The request's path (logged; not sent in resource attributes). */
  path: string;
}

export type Decision = 'Allow' | 'Deny' | 'NoOpinion';

export interface Authorizer {
  /** Rejects when no decision could be made (the review failed): the kubelet answers 500. */
  authorize(a: Attributes): Promise<{ decision: Decision; reason: string }>;
}

/** A bearer-token authenticator: a user, undefined when it does not know the token; rejects on failure to decide. */
export interface TokenAuthenticator {
  authenticateToken(token: string): Promise<UserInfo | undefined>;
}

/** The one call the webhooks make: create a review object and read back its status (a clientset's generic create). */
export interface ReviewClient<T> {
  create(review: T): Promise<T>;
}

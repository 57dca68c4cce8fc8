// The delegated authentication and authorization contracts of a component's
// own HTTPS port (upstream: k8s.io/apiserver's authenticator.Request,
// authorizer.Attributes and authorizer.Authorizer, as the kubelet's
// AuthInterface and the scheduler's and controller-manager's
// DelegatingAuthentication/AuthorizationOptions compose them).

import type { UserInfo } from '@kubelab/api';

/** Who a request is: @kubelab/api's user.Info, the apiserver's too. */
export type { UserInfo };

/** What a request asks to do: a SubjectAccessReview's resourceAttributes, or its nonResourceAttributes (path and verb). */
export interface Attributes {
  user: UserInfo;
  verb: string;
  /** false: a non-resource request, decided on `path` and `verb` alone (upstream IsResourceRequest). */
  resourceRequest: boolean;
  namespace: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  name: string;
  /** The request's path (a non-resource request's subject; logged only for a resource request). */
  path: string;
}

export type Decision = 'Allow' | 'Deny' | 'NoOpinion';

export interface Authorizer {
  /** Rejects when no decision could be made (the review failed): the filter answers 500. */
  authorize(a: Attributes): Promise<{ decision: Decision; reason: string }>;
}

/** Which credentials a port takes (upstream DelegatingAuthenticatorConfig). */
export interface AuthenticatorOptions {
  /** A client CA is set: the TLS layer asked for and checked client certificates. */
  x509: boolean;
  /** Bearer tokens: the kubelet's --authentication-token-webhook; the others' --authentication-kubeconfig. */
  token?: TokenAuthenticator;
  /** The kubelet's --anonymous-auth (upstream's delegating authentication always allows it). */
  anonymous: boolean;
}

/** A secure port's authentication (who) and authorization (may they). */
export interface SecurePortAuth {
  authentication: AuthenticatorOptions;
  authorizer: Authorizer;
}

/** A bearer-token authenticator: a user, undefined when it does not know the token; rejects on failure to decide. */
export interface TokenAuthenticator {
  authenticateToken(token: string): Promise<UserInfo | undefined>;
}

/** The one call the webhooks make: create a review object and read back its status (a clientset's generic create). */
export interface ReviewClient<T> {
  create(review: T): Promise<T>;
}

// authentication.k8s.io/v1: TokenRequest (the body of serviceaccounts/<name>/token)
// and TokenReview (a token checked by the apiserver's authenticators).
import type { KubeObject, ObjectMeta } from '../../meta/types.js';

export interface BoundObjectReference {
  kind?: string;
  apiVersion?: string;
  name?: string;
  uid?: string;
}

export interface TokenRequestSpec {
  audiences: string[];
  expirationSeconds?: number;
  boundObjectRef?: BoundObjectReference;
}

export interface TokenRequestStatus {
  token: string;
  expirationTimestamp: string;
}

export interface TokenRequest extends KubeObject {
  apiVersion?: 'authentication.k8s.io/v1';
  kind?: 'TokenRequest';
  metadata: ObjectMeta;
  spec: TokenRequestSpec;
  status?: TokenRequestStatus;
}

/** authentication/v1 UserInfo: a user as the TokenReview API reports it. */
export interface AuthenticationUserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface TokenReviewSpec {
  token?: string;
  audiences?: string[];
}

export interface TokenReviewStatus {
  authenticated?: boolean;
  user?: AuthenticationUserInfo;
  audiences?: string[];
  error?: string;
}

export interface TokenReview extends KubeObject {
  apiVersion?: 'authentication.k8s.io/v1';
  kind?: 'TokenReview';
  metadata: ObjectMeta;
  spec: TokenReviewSpec;
  status?: TokenReviewStatus;
}

export interface SelfSubjectReviewStatus {
  userInfo?: AuthenticationUserInfo;
}

export interface SelfSubjectReview extends KubeObject {
  apiVersion?: 'authentication.k8s.io/v1' | 'authentication.k8s.io/v1beta1';
  kind?: 'SelfSubjectReview';
  metadata: ObjectMeta;
  status?: SelfSubjectReviewStatus;
}

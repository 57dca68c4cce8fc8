// authentication.k8s.io/v1 (k8s.io/api/authentication/v1): SelfSubjectReview,
// who the apiserver thinks the caller is (`kubectl auth whoami`). Create-only, never stored.
import type { KubeObject, ObjectMeta } from '../../meta/types.js';

/** The user as an authenticator saw it (upstream authenticationv1.UserInfo). */
export interface UserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface SelfSubjectReviewStatus {
  userInfo?: UserInfo;
}

export interface SelfSubjectReview extends KubeObject {
  apiVersion?: 'authentication.k8s.io/v1' | 'authentication.k8s.io/v1beta1';
  kind?: 'SelfSubjectReview';
  metadata: ObjectMeta;
  status?: SelfSubjectReviewStatus;
}

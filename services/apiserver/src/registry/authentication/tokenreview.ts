// TokenReview (upstream pkg/registry/authentication/tokenreview): create-only
// and never stored; the bearer-token authenticators of the request chain
// judge spec.token, and the answer is the posted object with its status.
// Webhook token authenticators (the kubelet's --authentication-token-webhook)
// ask it.

import type { KubeObject, TokenReview } from '@kubelab/api';
import { reviewToken, type TokenAuthenticator } from '../../authentication/token.js';
import { createOnly, info } from '../create-only.js';
import type { ResourceStore } from '../interface.js';

/** `apiAudiences`: `--api-audiences`, what a review without spec.audiences asks about. */
export function tokenReviewStore(authenticators: readonly TokenAuthenticator[], apiAudiences: readonly string[]): ResourceStore {
  return createOnly(info('authentication.k8s.io', 'v1', 'tokenreviews'), async (_ns, obj) => {
    const review = obj as KubeObject & Partial<TokenReview>;
    const status = await reviewToken(review.spec ?? {}, authenticators, apiAudiences);
    return { ...review, status } as KubeObject;
  });
}

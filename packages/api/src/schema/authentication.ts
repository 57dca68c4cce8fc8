// The schema of authentication.k8s.io/v1: TokenRequest and TokenReview (k8s.io/api/authentication/v1 types.go).
// TokenRequest is numbered: kubectl create token sends it as protobuf.

import { API_VERSION, KIND, META_FIELD, type TypeDef } from './definition.js';

export const AUTHENTICATION_TYPES: Record<string, TypeDef> = {
  TokenRequest: {
    group: 'authentication',
    protobuf: true,
    description: 'A TokenRequest, posted to serviceaccounts/<name>/token, asks for a token of the service account.',
    fields: {
      apiVersion: API_VERSION,
      kind: KIND,
      metadata: META_FIELD,
      spec: ['TokenRequestSpec', 'What the token is for.', { required: true, protobuf: 2 }],
      status: ['TokenRequestStatus', 'The issued token.', { protobuf: 3 }],
    },
  },
  TokenRequestSpec: {
    group: 'authentication',
    description: 'The parameters of a token request.',
    fields: {
      audiences: ['[]string', 'Who the token is for; defaults to the audiences of the apiserver.', { required: true, protobuf: 1 }],
      expirationSeconds: ['int64', 'The requested lifetime (default 3600, at least 600).', { protobuf: 4 }],
      boundObjectRef: ['BoundObjectReference', 'A Pod, Secret or Node the token is valid only as long as it exists.', { protobuf: 3 }],
    },
  },
  BoundObjectReference: {
    group: 'authentication',
    description: 'The object a token is bound to.',
    fields: {
      kind: ['string', 'Pod, Secret or Node.', { protobuf: 1 }],
      apiVersion: ['string', 'v1.', { protobuf: 2 }],
      name: ['string', 'Its name.', { protobuf: 3 }],
      uid: ['string', 'Its UID.', { protobuf: 4 }],
    },
  },
  TokenRequestStatus: {
    group: 'authentication',
    description: 'The result of a token request.',
    fields: {
      token: ['string', 'The token.', { required: true }],
      expirationTimestamp: ['Time', 'When the token expires.', { required: true }],
    },
  },
  TokenReview: {
    group: 'authentication',
    description: 'A TokenReview asks the apiserver who a token authenticates as.',
    fields: {
      apiVersion: API_VERSION,
      kind: KIND,
      metadata: META_FIELD,
      spec: ['TokenReviewSpec', 'The token to review.', { required: true }],
      status: ['TokenReviewStatus', 'Whether it authenticates, and as whom.'],
    },
  },
  TokenReviewSpec: {
    group: 'authentication',
    description: 'The token to review.',
    fields: { token: ['string', 'The opaque bearer token.'], audiences: ['[]string', "Audiences the token must be valid for; default: the apiserver's."] },
  },
  TokenReviewStatus: {
    group: 'authentication',
    description: 'The result of a token review.',
    fields: {
      authenticated: ['boolean', 'Whether the token authenticates.'],
      user: ['AuthenticationUserInfo', 'Who it authenticates as.'],
      audiences: ['[]string', 'Audiences of the token that the review asked for.'],
      error: ['string', 'Why the token did not authenticate.'],
    },
  },
  AuthenticationUserInfo: {
    group: 'authentication',
    name: 'UserInfo',
    description: 'A user as authenticators report it.',
    fields: {
      username: ['string', 'The user name.'],
      uid: ['string', 'A unique value for the user across time.'],
      groups: ['[]string', 'The groups the user is in.'],
      extra: ['object', 'Further information the authenticator provided (each value a list of strings).'],
    },
  },
};

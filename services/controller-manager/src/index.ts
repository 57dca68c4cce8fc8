// @kubelab/controller-manager: kube-controller-manager as a library
// (startControllerManager) plus its controllers and their pure decisions.

export { startControllerManager, type ControllerManagerOptions, type RunningControllerManager } from './controller-manager.js';
export { controllerManagerFlags, configFromFlags, defaultConfig, type ControllerManagerConfig } from './options.js';
export { defaultRegistry } from './controllers/index.js';
export { ControllerRegistry, type ControllerDescriptor } from './controllers/registry.js';
export { QueueController, type Controller, type ControllerContext } from './util/controller.js';
export { ControllerExpectations } from './util/expectations.js';
export { computeHash, safeEncodeString } from './util/hash.js';
export { CsrApprovingController, apiserverSubjectAccessReviewer, type SubjectAccessReviewer, type SubjectAccessReviewSpec } from './controllers/certificates/approver/csr-approving-controller.js';
export { CsrSigningController } from './controllers/certificates/signer/csr-signing-controller.js';
export { ReplicaSetController } from './controllers/replicaset/replicaset-controller.js';
export { DeploymentController } from './controllers/deployment/deployment-controller.js';

// The Kubernetes version this kubelet reports (upstream: the build's
// version.Get().GitVersion): in the Node's nodeInfo and the start-up log.

export const KUBELET_VERSION = 'v1.32.0';

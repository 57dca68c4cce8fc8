#!/bin/sh
# PID 1 of a node-N container: the "machine" whose network namespace kubelet-N,
# containerd-N and kube-proxy-N share. Its only process is the node's network
# plugin (node-routes.mjs: routes for the pod and service ranges, VXLAN to the
# other nodes); it never exits on an error, since the namespace lives here.
set -eu
exec node /usr/local/lib/kubelab/node-routes.mjs

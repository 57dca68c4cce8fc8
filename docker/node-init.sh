#!/bin/sh
# PID 1 of a node-N container: the "machine" whose network namespace kubelet-N,
# containerd-N and kube-proxy-N share. Its only process is the node's network
# plugin (node-routes.mjs: routes for the pod and service ranges, VXLAN to the
# other nodes), beside the node's agent (node-agent, services/node); it never
# exits on an error, since the namespace lives here.
set -eu
# The node's agent: the dashboard's stop/start/fault requests for this node
# (kubelab.control.<node> over NATS), answered with its systemctl and node-fault.
node-agent &
exec node /usr/local/lib/kubelab/node-routes.mjs

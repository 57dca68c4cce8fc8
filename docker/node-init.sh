#!/bin/sh
# PID 1 of a node-N container: the "machine" whose network namespace kubelet-N,
# containerd-N and kube-proxy-N share. It black-holes the cluster's virtual
# ranges so a packet for a pod or service IP without a more specific route
# (added by the runtime's network plugin) never leaves the node, then waits.
set -eu
POD_CIDR=${KUBELAB_CLUSTER_CIDR:-10.244.0.0/16}
SERVICE_CIDR=${KUBELAB_SERVICE_CLUSTER_IP_RANGE:-10.96.0.0/12}
if ip route add blackhole "$POD_CIDR" 2>/dev/null && ip route add blackhole "$SERVICE_CIDR" 2>/dev/null; then
  echo "node-init: black-holed $POD_CIDR and $SERVICE_CIDR"
else
  echo "node-init: cannot change routes (no NET_ADMIN?); cluster ranges not black-holed"
fi
trap 'exit 0' TERM INT
while :; do sleep 3600 & wait $!; done

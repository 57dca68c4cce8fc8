#!/bin/bash
# /usr/bin/<component> in a node component's image (kubelet, containerd,
# kube-proxy, node-problem-detector): the unit's ExecStart, so `ps aux` and
# `systemctl status` on the node show the component by the path a kubeadm
# node installs it at, not as one more `node /app/dist/main.js`.
exec -a "$0" node /app/dist/main.js "$@"

# One image per kubelab service, all from one shared build stage:
#   docker build --target apiserver -t kubelab/apiserver .
# (docker compose build does this for every service.)
# NODE_IMAGE is the public Node LTS image by default; scripts/offline-images.sh
# builds a stand-in for machines without a registry.
ARG NODE_IMAGE=node:24-bookworm-slim

# ---------------------------------------------------------------- build
FROM ${NODE_IMAGE} AS build
ARG PNPM_VERSION=10.34.9
# Node's own CA list plus any docker/certs/*.crt (a TLS-intercepting proxy's CA).
COPY docker/certs/ /usr/local/share/kubelab-certs/
RUN node -p "require('tls').rootCertificates.join('\n')" > /etc/kubelab-ca.pem \
 && for f in /usr/local/share/kubelab-certs/*.crt; do [ -f "$f" ] && cat "$f" >> /etc/kubelab-ca.pem; done; true
ENV NODE_EXTRA_CA_CERTS=/etc/kubelab-ca.pem \
    CI=true \
    TURBO_TELEMETRY_DISABLED=1
RUN npm install -g --no-fund --no-audit "pnpm@${PNPM_VERSION}"
WORKDIR /src
# Dependencies first (from the lockfile alone), so source edits keep this layer cached.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN pnpm fetch
COPY . .
RUN pnpm install --offline --frozen-lockfile \
 && pnpm build \
 && for svc in apiserver scheduler controller-manager kubelet containerd kube-proxy; do \
      if [ -d "services/$svc" ]; then pnpm --filter "@kubelab/$svc" deploy --legacy --prod "/out/$svc"; fi; \
    done

# ---------------------------------------------------------------- runtime bases
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app

# Node-level images need the kernel's packet tools (kube-proxy's rules, the node's routes).
FROM runtime AS runtime-net
RUN command -v iptables-restore >/dev/null && command -v nft >/dev/null && command -v ip >/dev/null \
 || (apt-get update && apt-get install -y --no-install-recommends iptables nftables ipvsadm iproute2 \
     && rm -rf /var/lib/apt/lists/*)

# ---------------------------------------------------------------- control plane
FROM runtime AS apiserver
COPY --from=build /out/apiserver /app
USER 1000
EXPOSE 6443 6444
ENTRYPOINT ["node", "/app/dist/main.js"]

FROM runtime AS scheduler
COPY --from=build /out/scheduler /app
USER 1000
EXPOSE 10259
ENTRYPOINT ["node", "/app/dist/main.js"]

FROM runtime AS controller-manager
COPY --from=build /out/controller-manager /app
USER 1000
EXPOSE 10257
ENTRYPOINT ["node", "/app/dist/main.js"]

# ---------------------------------------------------------------- node components
# The runtime and the kubelet run as root, as on a real node: the CRI socket,
# /var/log/pods and the node's network namespace are root's.
FROM runtime-net AS containerd
COPY --from=build /out/containerd /app
ENTRYPOINT ["node", "/app/dist/main.js"]

FROM runtime AS kubelet
COPY --from=build /out/kubelet /app
EXPOSE 10250 10248
ENTRYPOINT ["node", "/app/dist/main.js"]

FROM runtime-net AS kube-proxy
COPY --from=build /out/kube-proxy /app
EXPOSE 10256 10249
ENTRYPOINT ["node", "/app/dist/main.js"]

# The node's "machine": holds the network namespace the node components share.
FROM runtime-net AS node
COPY docker/node-init.sh /usr/local/bin/node-init
ENTRYPOINT ["/usr/local/bin/node-init"]

# One image per kubelab service, all from one shared build stage:
#   docker build --target apiserver -t kubelab/apiserver .
# (docker compose build does this for every service.)
# NODE_IMAGE is the public Node LTS image by default; scripts/offline-images.sh
# builds a stand-in for machines without a registry.
# Works with the classic builder (docker-compose 1.29, no BuildKit) and BuildKit.
ARG NODE_IMAGE=node:24-bookworm-slim

# ---------------------------------------------------------------- manifests
# Only the package.json files of the workspace, so the dependency install
# below stays cached until a manifest (not a source file) changes.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY packages/ packages/
COPY services/ services/
RUN find packages services -type f ! -name package.json -delete \
 && find packages services -depth -type d -empty -delete

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
RUN npm install -g --no-fund --no-audit --no-update-notifier "pnpm@${PNPM_VERSION}"
WORKDIR /src
# 1. Packages from the lockfile alone (this and `pnpm deploy --legacy`, which
#    resolves package metadata again, are the steps that need the registry).
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN pnpm fetch
# 2. Link the workspace from its manifests (cached while no package.json changes).
COPY package.json ./
COPY test/package.json test/
COPY --from=manifests /src/ ./
RUN pnpm install --offline --frozen-lockfile
# 3. Sources (tests, benches and docs are left out by .dockerignore), build, and
#    one self-contained directory per service (`pnpm deploy`, each package ships
#    its dist via "files").
COPY turbo.json tsconfig.base.json ./
COPY proto/ proto/
COPY packages/ packages/
COPY services/ services/
# turbo itself, not `pnpm turbo`: pnpm hands its children
# pnpm_config_verify_deps_before_run="false", a string each nested `pnpm run
# build` reads as true, so the parallel builds re-check the install and rewrite
# node_modules/.pnpm-workspace-state-v1.json while others read it (a CI build
# failed on "Unexpected end of JSON input").
RUN node_modules/.bin/turbo run build --output-logs=errors-only \
      --filter=@kubelab/apiserver... --filter=@kubelab/scheduler... \
      --filter=@kubelab/controller-manager... --filter=@kubelab/kubelet... \
      --filter=@kubelab/containerd... --filter=@kubelab/kube-proxy... \
      --filter=@kubelab/kubelab... --filter=@kubelab/node-problem-detector... \
      --filter=@kubelab/node... --filter=@kubelab/crictl... --filter=@kubelab/systemd... \
      --filter=@kubelab/metrics-server... --filter=@kubelab/kube-network-policies... \
      --filter=@kubelab/dashboard... --filter=@kubelab/kubemark...
# Each deploy's entry file: a service's dist/main.js; the node tools' systemctl; systemd's systemd-unit.
RUN for entry in apiserver:main.js scheduler:main.js controller-manager:main.js kubelet:main.js containerd:main.js \
      kube-proxy:main.js kubelab:main.js node-problem-detector:main.js crictl:main.js node:bin/systemctl.js systemd:bin/systemd-unit.js \
      metrics-server:main.js kube-network-policies:main.js dashboard:main.js kubemark:main.js; do \
      svc=${entry%%:*}; \
      pnpm --filter "@kubelab/$svc" deploy --legacy --prod --prefer-offline "/out/$svc" >/tmp/deploy.log 2>&1 \
      && test -f "/out/$svc/dist/${entry#*:}" \
      || { cat /tmp/deploy.log; echo "deploy of $svc failed or has no dist/${entry#*:}" >&2; exit 1; }; \
    done

# ---------------------------------------------------------------- runtime bases
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
# `healthz PORT PATH`: a probe without starting a second Node.js process.
COPY docker/healthz.sh /usr/local/bin/healthz
# HTTPS ports (the apiserver's, the scheduler's, the controller-manager's): the probe that needs TLS (docker/healthz-https.mjs says why).
COPY docker/healthz-https.mjs /usr/local/bin/healthz-https
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
HEALTHCHECK --interval=5s --timeout=10s --retries=5 CMD ["healthz-https", "6443", "/readyz", "/etc/kubernetes/pki/ca.crt"]
ENTRYPOINT ["node", "/app/dist/main.js"]

FROM runtime AS scheduler
COPY --from=build /out/scheduler /app
USER 1000
EXPOSE 10259
HEALTHCHECK --interval=5s --timeout=10s --retries=5 CMD ["healthz-https", "10259", "/healthz", "--insecure"]
ENTRYPOINT ["node", "/app/dist/main.js"]

FROM runtime AS controller-manager
COPY --from=build /out/controller-manager /app
USER 1000
EXPOSE 10257
HEALTHCHECK --interval=5s --timeout=10s --retries=5 CMD ["healthz-https", "10257", "/healthz", "--insecure"]
ENTRYPOINT ["node", "/app/dist/main.js"]

# metrics-server (kube-system's Deployment's process, in control-plane's network namespace).
FROM runtime AS metrics-server
COPY --from=build /out/metrics-server /app
USER 1000
EXPOSE 4443
HEALTHCHECK --interval=5s --timeout=10s --retries=5 CMD ["healthz-https", "4443", "/livez", "--insecure"]
ENTRYPOINT ["node", "/app/dist/main.js"]

# The dashboard (services/dashboard): the built page in dist/web and its server.
FROM runtime AS dashboard
COPY --from=build /out/dashboard /app
USER 1000
EXPOSE 9090
HEALTHCHECK --interval=5s --timeout=10s --retries=5 CMD ["healthz", "9090", "/healthz"]
ENTRYPOINT ["node", "/app/dist/main.js"]

# The kubelab CLI: the compose stack's one-shot setup steps run its
# `kubeadm init` (certificates, kubeconfigs, encryption config into the
# volumes; keys are made at run time, never in an image) and
# `kubeadm admin-kubeconfig`. Root: it gives the control plane's files to uid 1000.
FROM runtime AS kubelab
COPY --from=build /out/kubelab /app
ENTRYPOINT ["node", "/app/dist/main.js"]

# ---------------------------------------------------------------- node components
# The runtime and the kubelet run as root, as on a real node: the CRI socket,
# /var/log/pods and the node's network namespace are root's.
# Each runs as its node's systemd unit: systemd-unit (@kubelab/systemd) is the
# container's process, the component (/usr/bin/<name>, docker/component.sh) the
# unit's main process, journalled into /var/log/journal and its state into
# /run/systemd (volumes shared with the node-N container, where systemctl and
# journalctl read them). `systemctl stop kubelet` on the node ends the main
# process, not the container, so `systemctl start kubelet` works; the
# healthcheck probes the component, so a stopped unit shows as unhealthy.
FROM runtime-net AS containerd
COPY --from=build /out/containerd /app
COPY --from=build /out/systemd /opt/kubelab/systemd
COPY docker/component.sh /usr/bin/containerd
HEALTHCHECK --interval=5s --timeout=3s --retries=5 CMD ["healthz", "1338", "/healthz"]
ENTRYPOINT ["node", "/opt/kubelab/systemd/dist/bin/systemd-unit.js", "containerd", "--", "/usr/bin/containerd"]

FROM runtime AS kubelet
COPY --from=build /out/kubelet /app
COPY --from=build /out/systemd /opt/kubelab/systemd
COPY docker/component.sh /usr/bin/kubelet
EXPOSE 10250 10248
HEALTHCHECK --interval=5s --timeout=3s --retries=5 CMD ["healthz", "10248", "/healthz"]
ENTRYPOINT ["node", "/opt/kubelab/systemd/dist/bin/systemd-unit.js", "kubelet", "--", "/usr/bin/kubelet"]

FROM runtime-net AS kube-proxy
COPY --from=build /out/kube-proxy /app
COPY --from=build /out/systemd /opt/kubelab/systemd
COPY docker/component.sh /usr/bin/kube-proxy
EXPOSE 10256 10249
HEALTHCHECK --interval=5s --timeout=3s --retries=5 CMD ["healthz", "10256", "/healthz"]
ENTRYPOINT ["node", "/opt/kubelab/systemd/dist/bin/systemd-unit.js", "kube-proxy", "--", "/usr/bin/kube-proxy"]

# The NetworkPolicy agent (kube-network-policies' role) as its node's unit:
# iptables in the node's network namespace, /metrics, /healthz and /rules on 9080.
FROM runtime-net AS kube-network-policies
COPY --from=build /out/kube-network-policies /app
COPY --from=build /out/systemd /opt/kubelab/systemd
COPY docker/component.sh /usr/bin/kube-network-policies
EXPOSE 9080
HEALTHCHECK --interval=5s --timeout=3s --retries=5 CMD ["healthz", "9080", "/healthz"]
ENTRYPOINT ["node", "/opt/kubelab/systemd/dist/bin/systemd-unit.js", "kube-network-policies", "--", "/usr/bin/kube-network-policies"]

# The Node Problem Detector as its node's unit, with upstream's default
# monitor configurations (/app/config); /healthz on 20256 as upstream serves it.
FROM runtime AS node-problem-detector
COPY --from=build /out/node-problem-detector /app
COPY --from=build /out/systemd /opt/kubelab/systemd
COPY docker/component.sh /usr/bin/node-problem-detector
HEALTHCHECK --interval=5s --timeout=3s --retries=5 CMD ["healthz", "20256", "/healthz"]
ENTRYPOINT ["node", "/opt/kubelab/systemd/dist/bin/systemd-unit.js", "node-problem-detector", "--", "/usr/bin/node-problem-detector"]

# The node's "machine": holds the network namespace the node components share,
# and plays the network plugin (routes to the other nodes' pod CIDRs). Its
# shell is the node's: systemctl, journalctl, dmesg, ps, top, free, df, uptime
# (@kubelab/node) and crictl first on PATH, over the volumes the node's
# components share with it (docker-compose.yml) and their PID namespace.
FROM runtime-net AS node
# `docker compose exec node-1 bash` starts in root's home, as `ssh root@node-1`.
WORKDIR /root
COPY --from=build /out/node /opt/kubelab/node
COPY --from=build /out/crictl /opt/kubelab/crictl
# bin/'s links to node-tool, one per tool the package names (a deploy keeps no symlinks).
RUN cd /opt/kubelab/node/bin && for t in $(node -p "Object.keys(require('../package.json').bin).join(' ')"); do ln -sf node-tool "$t"; done
ENV PATH=/opt/kubelab/node/bin:/opt/kubelab/crictl/bin:$PATH
# The shell's kill reaches containerd's (virtual) shims: BASH_ENV for `bash -c`, bash.bashrc for an interactive shell.
ENV BASH_ENV=/opt/kubelab/node/shell/kill.bash
RUN echo '. /opt/kubelab/node/shell/kill.bash' >> /etc/bash.bashrc
RUN printf 'runtime-endpoint: unix:///run/containerd/containerd.sock\nimage-endpoint: unix:///run/containerd/containerd.sock\ntimeout: 10\n' > /etc/crictl.yaml
COPY docker/node-init.sh /usr/local/bin/node-init
COPY docker/node-routes.mjs docker/kube-rest.mjs docker/host-ports.mjs /usr/local/lib/kubelab/
ENTRYPOINT ["/usr/local/bin/node-init"]

# ---------------------------------------------------------------- hollow profile
# Hollow nodes (upstream kubemark, --morph=kubelet): one process holding many
# real kubelets, each with its own simulated runtime. Root with NET_ADMIN: it
# adds each node's address to eth0 (--node-ip-interface). `ip` from runtime-net.
FROM runtime-net AS kubemark
COPY --from=build /out/kubemark /app
ENV NODE_OPTIONS=--max-semi-space-size=32
ENTRYPOINT ["node", "/app/dist/main.js"]

# ---------------------------------------------------------------- ha profile
# The apiservers' load balancer of the compose `ha` profile (kubeadm's HA
# guide, its haproxy option): Debian's haproxy package; `kubelab kubeadm ha`
# writes /etc/haproxy/haproxy.cfg into a volume (the same configuration
# `kubelab up --ha` runs). /healthz on 8404 is haproxy's own monitor-uri.
FROM runtime AS haproxy
RUN command -v haproxy >/dev/null \
 || (apt-get update && apt-get install -y --no-install-recommends haproxy \
     && rm -rf /var/lib/apt/lists/*)
EXPOSE 6443 6444 8404
HEALTHCHECK --interval=5s --timeout=3s --retries=5 CMD ["healthz", "8404", "/healthz"]
ENTRYPOINT ["haproxy", "-W", "-db", "-f", "/etc/haproxy/haproxy.cfg"]

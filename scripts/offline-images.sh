#!/usr/bin/env bash
# Builds local stand-ins for the two public base images the stack uses, for a
# machine that cannot reach a container registry (CI here). They come from
# Debian's packages and the host's own Node.js:
#   kubelab-offline/node:host   stands in for node:24-bookworm-slim (with the host's Node.js)
#   kubelab-offline/nats:debian    stands in for nats:2.10
# Then use them with:  NODE_IMAGE=kubelab-offline/node:host NATS_IMAGE=kubelab-offline/nats:debian docker compose build
# Needs root, debootstrap, docker. Re-running is cheap: existing images are kept
# unless --force is given.
set -euo pipefail

NODE_TAG=${NODE_TAG:-kubelab-offline/node:host}
NATS_TAG=${NATS_TAG:-kubelab-offline/nats:debian}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
force=${1:-}

have() { docker image inspect "$1" >/dev/null 2>&1; }
if [ "$force" != "--force" ] && have "$NODE_TAG" && have "$NATS_TAG"; then
  echo "offline base images present: $NODE_TAG $NATS_TAG"
  exit 0
fi

for tool in debootstrap docker node; do
  command -v "$tool" >/dev/null || { echo "offline-images: $tool is required" >&2; exit 1; }
done

work=$(mktemp -d /tmp/kubelab-rootfs.XXXXXX)
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"

echo "--- debootstrap bookworm (minbase)"
debootstrap --variant=minbase \
  --include=ca-certificates,iproute2,iptables,nftables,ipvsadm,procps \
  bookworm "$rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log"; exit 1; }
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*

echo "--- nats-server from Debian"
nats_bin=$(command -v nats-server || true)
if [ -z "$nats_bin" ]; then
  apt-get install -y -qq nats-server >/dev/null
  nats_bin=$(command -v nats-server)
fi
install -m 0755 "$nats_bin" "$rootfs/nats-server"
tar -C "$rootfs" -c . | docker import \
  --change 'ENTRYPOINT ["/nats-server"]' \
  --change 'EXPOSE 4222 8222' - "$NATS_TAG" >/dev/null
echo "built $NATS_TAG"
rm -f "$rootfs/nats-server"

echo "--- node $(node --version) from the host"
node_bin=$(readlink -f "$(command -v node)")
install -m 0755 "$node_bin" "$rootfs/usr/local/bin/node"
node_modules=$(dirname "$node_bin")/../lib/node_modules
mkdir -p "$rootfs/usr/local/lib/node_modules"
for m in npm corepack; do
  [ -d "$node_modules/$m" ] && cp -a "$node_modules/$m" "$rootfs/usr/local/lib/node_modules/"
done
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
ln -sf ../lib/node_modules/corepack/dist/corepack.js "$rootfs/usr/local/bin/corepack"
# The official image has user node (1000:1000).
chroot "$rootfs" /usr/sbin/groupadd --gid 1000 node
chroot "$rootfs" /usr/sbin/useradd --uid 1000 --gid node --shell /bin/bash --create-home node
tar -C "$rootfs" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' - "$NODE_TAG" >/dev/null
echo "built $NODE_TAG"


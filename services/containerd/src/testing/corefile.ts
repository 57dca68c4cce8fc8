// kubeadm 1.32's Corefile as its CoreDNS addon writes it into the `coredns`
// ConfigMap (packages/kubelab's coredns-addon.ts writes the cluster's): the
// configuration the DNS server's tests run with.

export const KUBEADM_COREFILE = `.:53 {
    errors
    health {
       lameduck 5s
    }
    ready
    kubernetes cluster.local in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30
    loop
    reload
    loadbalance
}
`;

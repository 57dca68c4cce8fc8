/** The CoreDNS release the simulated coredns program reports (`coredns -version`, the build_info metric). */
export const COREDNS_VERSION = '1.11.3';

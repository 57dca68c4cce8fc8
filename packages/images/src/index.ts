// @kubelab/images: the simulated registry's catalogue, shared by the runtime
// (services/containerd pulls from it) and `kubelab images` (lists it).
export { CATALOG, HTTPD_INDEX, NGINX_INDEX, PRIVATE_IMAGE_AUTH } from './catalog.js';
export { imageDigest, imageId, lookupCatalog, repositoryKnown, shortRepository, type CatalogMatch, type ImageDef } from './image.js';
export { humanSize, imagesMarkdown, imagesTable, listedImages } from './listing.js';

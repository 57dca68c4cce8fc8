// The tag part of an image reference, as the kubelet's parsers.ParseImageName
// reads it (docker reference grammar): `nginx` → latest, `nginx:1.25` → 1.25,
// digest-only → no tag, unparsable → undefined.

const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*';
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[0-9a-fA-F:]+\\])(?::[0-9]+)?`;
const NAME_RE = new RegExp(`^(?:${DOMAIN}/)?${COMPONENT}(?:/${COMPONENT})*$`);
const TAG_RE = /^[\w][\w.-]{0,127}$/;
const DIGEST_RE = /^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}$/;

export interface ImageRef {
  repository: string;
  tag: string;
  digest: string;
}

/** ParseImageName: the tag defaults to `latest` when neither tag nor digest is given; undefined on bad syntax. */
export function parseImageName(image: string): ImageRef | undefined {
  let rest = image;
  let digest = '';
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST_RE.test(digest)) return undefined;
  }
  let tag = '';
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG_RE.test(tag)) return undefined;
  }
  if (rest.length === 0 || rest.length > 255 || !NAME_RE.test(rest)) return undefined;
  if (!tag && !digest) tag = 'latest';
  return { repository: rest, tag, digest };
}

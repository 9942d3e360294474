/** A policy as a manifest names it. */
interface NamedPolicy {
  file: string;
  sha256: string;
}

const key = (policy: NamedPolicy): string => `${policy.sha256}:${policy.file}`;

/**
 * Where each stage's policy is published in the site: under the name its
 * manifest gives, beside the pages, so a challenger runs `scores:audit
 * --policy <that name>` as the manifest says. Two policies under one name
 * (one edited in place after a stage was published) cannot both be there:
 * the first stage's keeps the name, the other goes to
 * `policies/<its sha256's first 16 digits>/<the name>`; so does a name that
 * is not a `.sql` file's, with `.sql` added: a policy is someone else's
 * text, and under a name such as `policy.html` or `x.js` a static host
 * would serve it as a page or a script of the site's own origin. Names are
 * compared without case, as a case-insensitive disk stores them. Stages are
 * given in order, so an earlier stage's link never moves.
 */
export function policyPlaces(
  policies: NamedPolicy[],
): (policy: NamedPolicy) => string {
  const aside = (policy: NamedPolicy): string =>
    `policies/${policy.sha256.slice(0, 16)}/${policy.file}` +
    (isSql(policy.file) ? "" : ".sql");
  const taken = new Set<string>();
  const places = new Map<string, string>();
  for (const policy of policies) {
    if (places.has(key(policy))) continue;
    const name = policy.file.toLowerCase();
    const free = isSql(policy.file) && !taken.has(name);
    taken.add(name);
    places.set(key(policy), free ? policy.file : aside(policy));
  }
  return (policy) => places.get(key(policy)) ?? aside(policy);
}

function isSql(file: string): boolean {
  return /\.sql$/i.test(file);
}

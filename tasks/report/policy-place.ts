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
 * is not a `.sql` file's, which could be taken for one of the site's own
 * files. Stages are given in order, so an earlier stage's link never moves.
 */
export function policyPlaces(
  policies: NamedPolicy[],
): (policy: NamedPolicy) => string {
  const aside = (policy: NamedPolicy): string =>
    `policies/${policy.sha256.slice(0, 16)}/${policy.file}`;
  const taken = new Set<string>();
  const places = new Map<string, string>();
  for (const policy of policies) {
    if (places.has(key(policy))) continue;
    const free = /\.sql$/i.test(policy.file) && !taken.has(policy.file);
    taken.add(policy.file);
    places.set(key(policy), free ? policy.file : aside(policy));
  }
  return (policy) => places.get(key(policy)) ?? aside(policy);
}

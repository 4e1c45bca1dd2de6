// Where the host sits in a URL as the server wrote it, so the consent dialog can emphasise it.

export interface HostSplit {
  before: string;
  host: string;
  after: string;
}

/**
 * Splits `url` around its host: the first of `hosts` found (case-insensitively) in the URL's
 * authority, after any `user:password@`. A host that appears only elsewhere (in the path, the
 * query, the user info) is not emphasised: that would point the user at the wrong thing.
 * Null when no host is found there (e.g. a percent-encoded host): show the URL plain.
 */
export function splitAtHost(url: string, hosts: string[]): HostSplit | null {
  const slashes = /^[a-z][a-z0-9+.-]*:[/\\]{2}/i.exec(url);
  if (!slashes) return null;
  let start = slashes[0].length;
  const rest = url.slice(start).search(/[/\\?#]/);
  const end = rest === -1 ? url.length : start + rest;
  const at = url.lastIndexOf("@", end - 1);
  if (at >= start) start = at + 1;
  for (const host of hosts) {
    if (host === "") continue;
    const wanted = host.toLowerCase();
    // Compared slice by slice: lower-casing the whole URL could shift the indices.
    for (let index = start; index + host.length <= end; index++) {
      if (url.slice(index, index + host.length).toLowerCase() === wanted) {
        return { before: url.slice(0, index), host: url.slice(index, index + host.length), after: url.slice(index + host.length) };
      }
    }
  }
  return null;
}

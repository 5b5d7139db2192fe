/** `bareAddress` and `isProxyAddress`: reading the socket address of a request. */

/** `address` without surrounding spaces, IPv6 brackets and zone (`%eth0`), in lower case. */
export function bareAddress(address: string): string {
  return address
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase();
}

/**
 * Whether `address` is one a proxy in front of the server connects from: loopback (127.0.0.0/8,
 * ::1), private (10/8, 172.16/12, 192.168/16, fc00::/7) or link-local (169.254/16, fe80::/10),
 * also IPv4-mapped. A client on the open internet never has one.
 */
export function isProxyAddress(address: string): boolean {
  const bare = bareAddress(address);
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(bare);
  if (v4 !== null) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    if (v4.slice(1).some((octet) => Number(octet) > 255)) return false;
    return (
      a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)
    );
  }
  if (!/^[0-9a-f:]+$/.test(bare) || !bare.includes(':')) return false;
  if (bare === '::1') return true;
  const first = Number.parseInt(bare.startsWith('::') ? '0' : (bare.split(':')[0] ?? ''), 16);
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
}

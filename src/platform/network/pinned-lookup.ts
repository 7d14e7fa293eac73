import type { LookupFunction } from 'node:net';
import net from 'node:net';

/**
 * A `lookup` for http(s).request that answers with the address the SSRF guard approved (checkUrl) instead of
 * resolving the host again, so DNS rebinding cannot swap in a private address between the check and the connect.
 * TLS still verifies the certificate against the URL's host name. Undefined (resolve as usual) without an address.
 */
export function pinnedLookup(address: string | null): LookupFunction | undefined {
  if (address === null) return undefined;
  return (_hostname, lookupOptions, callback) => {
    const family = net.isIPv6(address) ? 6 : 4;
    // Node asks for every address (`all`) when it races IPv4 and IPv6 (autoSelectFamily).
    if (lookupOptions.all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
type GeoIp = { lookup(ip: string): { country: string } | null };
let geoip: GeoIp | undefined;

/** The ISO country of an address from the GeoIP database shipped with geoip-country; no network. */
export function countryOf(ip: string): string | null {
  geoip ??= require('geoip-country') as GeoIp;
  const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return geoip.lookup(address)?.country ?? null;
}

/** What the diagnostic check shows for the GeoIP row. */
export function geoIpDatabaseVersion(): string {
  const pkg = require('geoip-country/package.json') as { version: string };
  return `geoip-country ${pkg.version}`;
}

import { describe, expect, it } from 'vitest';
import { countryOf, geoIpDatabaseVersion } from '../../api/auth/geoip.ts';

// The COUNTRY column of the login history (spec 03 §2, Users) comes from the local GeoIP database.
describe('countryOf', () => {
  it('finds the country of a public address in the local database', () => {
    expect(countryOf('8.8.8.8')).toBe('US');
  });

  it('reads an IPv4 address written as IPv6 (::ffff:a.b.c.d), as Node reports it', () => {
    expect(countryOf('::ffff:8.8.8.8')).toBe('US');
  });

  it('finds the country of a public IPv6 address', () => {
    expect(countryOf('2001:4860:4860::8888')).toBe('US');
  });

  it('answers null for loopback and private addresses', () => {
    expect(countryOf('127.0.0.1')).toBeNull();
    expect(countryOf('::1')).toBeNull();
    expect(countryOf('10.1.2.3')).toBeNull();
    expect(countryOf('192.168.1.1')).toBeNull();
  });

  it('answers null for something that is not an address', () => {
    expect(countryOf('unknown')).toBeNull();
    expect(countryOf('')).toBeNull();
  });
});

describe('geoIpDatabaseVersion', () => {
  it('names the database package and its version', () => {
    expect(geoIpDatabaseVersion()).toMatch(/^geoip-country \d+\.\d+\.\d+/);
  });
});

import { expect, test } from 'bun:test'
import { addressBlock } from './address-block'

test('an IPv4 address is its own block; an IPv6 address counts by its /64', () => {
  expect(addressBlock('203.0.113.9')).toBe('203.0.113.9')
  expect(addressBlock('::ffff:203.0.113.9')).toBe('203.0.113.9')
  expect(addressBlock('::ffff:cb00:7109')).toBe('203.0.113.9')
  expect(addressBlock('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64')
  expect(addressBlock('[2001:0DB8:0001:0002:ffff:0:0:7]')).toBe('2001:db8:1:2::/64')
  expect(addressBlock('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
  expect(addressBlock('unknown')).toBe('unknown')
})

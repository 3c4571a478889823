import { describe, expect, test } from 'bun:test'
import { addressBlock, isPublicIp } from './ip-address'
import { isPrivateHost } from './network'

/** Loopback, private, link-local, shared and unspecified addresses in the forms a URL or a resolver may give them. */
const NON_PUBLIC = [
  '127.0.0.1',
  '0.0.0.0',
  '10.0.0.5',
  '100.64.0.1',
  '100.127.255.254',
  '169.254.169.254',
  '172.16.0.1',
  '192.168.1.1',
  '::',
  '::1',
  '[::1]',
  '::ffff:7f00:1',
  '[::ffff:7f00:1]',
  '::ffff:127.0.0.1',
  '[::ffff:127.0.0.1]',
  '::ffff:a9fe:a9fe',
  '::ffff:0.0.0.0',
  '0:0:0:0:0:ffff:7f00:1',
  '::7f00:1',
  'fc00::1',
  'fd12:3456::1',
  'fdff:ffff::1',
  'fe80::1',
  'febf::1',
  'fe80::1%eth0',
  'ff02::1',
  '64:ff9b::7f00:1',
  '2002:7f00:1::1',
]

const PUBLIC = ['8.8.8.8', '100.63.255.255', '100.128.0.1', '172.32.0.1', '2606:4700:4700::1111', '[2606:4700:4700::1111]', '::ffff:8.8.8.8', '::ffff:808:808', '2a00:1450::1']

describe('private and public addresses', () => {
  test('every written form of a non-public address is private to the endpoint guard and not public to the fetch guard', () => {
    for (const ip of NON_PUBLIC) expect([ip, isPrivateHost(ip), isPublicIp(ip)]).toEqual([ip, true, false])
  })

  test('public addresses pass both', () => {
    for (const ip of PUBLIC) expect([ip, isPrivateHost(ip), isPublicIp(ip)]).toEqual([ip, false, true])
  })

  test('host names are judged by name: internal names are private, others are left to resolution', () => {
    for (const host of ['localhost', 'LOCALHOST.', 'db.localhost', 'printer.local', 'metadata.google.internal']) expect([host, isPrivateHost(host)]).toEqual([host, true])
    for (const host of ['example.com', 'llm.example.com.', 'fc00.example.com', '127.0.0.1.nip.io']) expect([host, isPrivateHost(host)]).toEqual([host, false])
  })

  test('host names as the URL parser gives them (IPv4 in other notations, IPv6 shortened) are caught', () => {
    for (const url of ['http://2130706433/', 'http://0x7f.1/', 'http://0/', 'http://[::ffff:127.0.0.1]/', 'http://[0:0:0:0:0:0:0:1]/', 'http://[FD00::1]/']) {
      expect([url, isPrivateHost(new URL(url).hostname)]).toEqual([url, true])
    }
  })
})

describe('the address block failed sign-ins are counted by', () => {
  test('an IPv4 address is its own block; an IPv6 address counts by its /64', () => {
    expect(addressBlock('203.0.113.9')).toBe('203.0.113.9')
    expect(addressBlock('::ffff:203.0.113.9')).toBe('203.0.113.9')
    expect(addressBlock('::ffff:cb00:7109')).toBe('203.0.113.9')
    expect(addressBlock('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64')
    expect(addressBlock('[2001:0DB8:0001:0002:ffff:0:0:7]')).toBe('2001:db8:1:2::/64')
    expect(addressBlock('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(addressBlock('unknown')).toBe('unknown')
  })
})

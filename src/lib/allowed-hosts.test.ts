import { afterAll, describe, expect, test } from 'bun:test'
import { inAllowedRange, isAllowedHostEntry } from './allowed-hosts'
import { ConfigError, parseConfig } from './config'
import { OutboundError, outboundFetch } from './outbound'

const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('ok') })
afterAll(() => server.stop(true))
const port = server.port
/** A resolver that knows the test's names: the system one is never asked. */
const resolveHost = async (host: string) => ({ 'wiki.intranet': ['127.0.0.1'], 'vllm': ['127.0.0.1'], 'public.test': ['93.184.216.34'] })[host] ?? []
const reason = (p: Promise<unknown>) => p.then(() => 'reached', (e) => (e instanceof OutboundError ? e.reason : String(e)))

describe('KONTOR_FETCH_ALLOWED_HOSTS entries', () => {
  test('host names, IP addresses and CIDR ranges are accepted; anything else is not', () => {
    for (const entry of ['wiki.intranet', 'vllm', 'ollama_box.lan', '10.0.0.7', 'fd00::7', '10.20.0.0/16', '127.0.0.0/8', 'fd00:1::/64']) expect([entry, isAllowedHostEntry(entry)]).toEqual([entry, true])
    for (const entry of ['10.0.0.0/33', '10.0.0.300', 'http://wiki.intranet', 'wiki intranet', '-wiki.lan', '10.0.0', 'fd00::/129', '']) expect([entry, isAllowedHostEntry(entry)]).toEqual([entry, false])
  })

  test('an address is allowed by a range it lies in, in either family; a single address and other spellings are left to the exact match', () => {
    const list = ['10.20.0.0/16', '192.168.1.7', 'fd00:1::/64']
    expect(inAllowedRange(list, '10.20.3.4')).toBe(true)
    expect(inAllowedRange(list, '::ffff:10.20.3.4')).toBe(false)
    expect(inAllowedRange(list, '10.21.0.1')).toBe(false)
    expect(inAllowedRange(list, '192.168.1.7')).toBe(false)
    expect(inAllowedRange(list, 'fd00:1::abcd')).toBe(true)
    expect(inAllowedRange(list, 'fd00:2::1')).toBe(false)
    expect(inAllowedRange(list, 'wiki.intranet')).toBe(false)
  })

  test('the configuration reads the list, and a wrong entry stops the start with one line naming the variable', () => {
    const config = parseConfig({ KONTOR_SECRET: 'x'.repeat(32), KONTOR_FETCH_ALLOWED_HOSTS: ' Wiki.Intranet, 10.20.0.0/16 ,[fd00::7]' })
    expect(config.fetchAllowedHosts).toEqual(['wiki.intranet', '10.20.0.0/16', 'fd00::7'])
    expect(() => parseConfig({ KONTOR_SECRET: 'x'.repeat(32), KONTOR_FETCH_ALLOWED_HOSTS: 'wiki.intranet,10.0.0.0/40' })).toThrow(
      new ConfigError(
        'Invalid configuration: KONTOR_FETCH_ALLOWED_HOSTS must be host names, IP addresses or CIDR ranges separated by commas, e.g. wiki.intranet,10.0.0.7,10.20.0.0/16 (got "wiki.intranet,10.0.0.0/40")',
      ),
    )
  })
})

describe('the outbound guard with ranges', () => {
  test('an IP address inside a listed range is reached; outside it, refused', async () => {
    expect(await reason(outboundFetch({ resolveHost, allowedHosts: ['127.0.0.0/8'] })(`http://127.0.0.1:${port}/`))).toBe('reached')
    expect(await reason(outboundFetch({ resolveHost, allowedHosts: ['10.0.0.0/8'] })(`http://127.0.0.1:${port}/`))).toBe('private-address')
  })

  test('an intranet name is reached when every address it resolves to lies in a listed range', async () => {
    const get = outboundFetch({ resolveHost, allowedHosts: ['127.0.0.0/8'] })
    expect(await reason(get(`http://wiki.intranet:${port}/`))).toBe('reached')
    expect(await reason(get(`http://vllm:${port}/v1/models`))).toBe('reached')
    expect(await reason(outboundFetch({ resolveHost, allowedHosts: ['10.0.0.0/8'] })(`http://wiki.intranet:${port}/`))).toBe('private-address')
  })

  test('without a resolver (Workers) a range cannot vouch for a name, and the name is refused', async () => {
    expect(await reason(outboundFetch({ allowedHosts: ['127.0.0.0/8'] })(`http://wiki.intranet:${port}/`))).toBe('private-address')
  })
})

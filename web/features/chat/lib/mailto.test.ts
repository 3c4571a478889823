import { expect, test } from 'bun:test'
import { draftText, mailtoHref, splitAddresses } from './mailto'

test('subject and body are percent-encoded so that &, ?, #, % and + survive; spaces are %20, line breaks CRLF', () => {
  const href = mailtoHref({ to: 'ada@example.com', subject: 'Q&A? #1 at 100% + more', body: 'Hi Ada,\n\nsee you.\r\nBye' })
  expect(href).toBe('mailto:ada@example.com?subject=Q%26A%3F%20%231%20at%20100%25%20%2B%20more&body=Hi%20Ada%2C%0D%0A%0D%0Asee%20you.%0D%0ABye')
  const url = new URL(href)
  expect(url.searchParams.get('subject')).toBe('Q&A? #1 at 100% + more')
  expect(decodeURIComponent(href.split('body=')[1]!)).toBe('Hi Ada,\r\n\r\nsee you.\r\nBye')
})

test('several addresses, separated by commas or semicolons, become one comma-separated list', () => {
  expect(mailtoHref({ to: ' a@x.de ; b@y.com,, ', subject: 'Hi', body: '' })).toBe('mailto:a@x.de,b@y.com?subject=Hi')
  expect(splitAddresses('a@x.de; b@y.com,')).toEqual(['a@x.de', 'b@y.com'])
})

test('characters that would end or change the address are encoded', () => {
  expect(mailtoHref({ to: 'a?b@x.de, c&d@y.com', subject: '', body: '' })).toBe('mailto:a%3Fb@x.de,c%26d@y.com')
  expect(mailtoHref({ to: 'Ada <ada@x.de>', subject: '', body: '' })).toBe('mailto:Ada%20%3Cada@x.de%3E')
})

test('without recipients or subject, only what is there', () => {
  expect(mailtoHref({ to: '', subject: '', body: 'Text' })).toBe('mailto:?body=Text')
  expect(mailtoHref({ to: '', subject: '  ', body: '' })).toBe('mailto:')
})

test('the draft as text for the clipboard', () => {
  const labels = { to: 'To', subject: 'Subject' }
  expect(draftText({ to: 'a@x.de', subject: 'Hi', body: 'Body' }, labels)).toBe('To: a@x.de\nSubject: Hi\n\nBody')
  expect(draftText({ to: '', subject: '', body: 'Body' }, labels)).toBe('Body')
})

import { expect, test } from 'bun:test'
import './zod-jitless'
import { config } from 'zod/mini'
import { z } from 'zod'

test("the entry's setting, made without loading zod, is the one zod's schemas read", () => {
  expect(config().jitless).toBe(true)
  // An object schema parses without compiling a parser (which a CSP without eval would refuse).
  expect(z.object({ a: z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' })
})

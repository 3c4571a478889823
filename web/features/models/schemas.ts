import { z } from 'zod/mini'

const isHttpUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol)
  } catch {
    return false
  }
}

// Messages are i18n keys (validation namespace, or models: for this form's own). Limits mirror
// createEndpointBody in src/api/models/schema.ts.
export const endpointSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'models:endpoints.nameRequired'), z.maxLength(60, 'tooLong')),
  baseUrl: z.string().check(z.trim(), z.maxLength(500, 'tooLong'), z.refine(isHttpUrl, 'models:endpoints.baseUrlInvalid')),
  apiKey: z.string().check(z.maxLength(500, 'tooLong')),
})
export type EndpointFormInput = z.input<typeof endpointSchema>
export type EndpointValues = z.output<typeof endpointSchema>

/** The server's English field messages as this form's keys. */
export const ENDPOINT_SERVER_FIELDS: Record<string, string> = {
  name: 'models:endpoints.nameRequired',
  baseUrl: 'models:endpoints.baseUrlInvalid',
  apiKey: 'tooLong',
}

/** A price per million tokens as typed (a string; a comma counts as the decimal point), checked and turned into a number. */
const priceField = z.pipe(
  z.pipe(
    z.string().check(
      z.trim(),
      z.minLength(1, { message: 'models:price.required', abort: true }),
      z.regex(/^\d+([.,]\d+)?$/, { message: 'models:price.notANumber', abort: true }),
    ),
    z.transform((v: string) => Number(v.replace(',', '.'))),
  ),
  // Mirrors modelPriceBody in src/api/models/schema.ts.
  z.number().check(z.maximum(10_000, 'models:price.tooHigh')),
)
export const priceSchema = z.object({ input: priceField, output: priceField })
export type PriceFormInput = z.input<typeof priceSchema>
export type PriceValues = z.output<typeof priceSchema>

import { z } from 'zod'
import { defineTool } from './types'

const address = z.email({ error: 'must be an e-mail address' })

const parameters = z.object({
  to: z
    .string()
    .max(2000)
    .describe('Recipient addresses, comma-separated. Empty when the user has not said whom to write to.')
    .refine((v) => splitAddresses(v).every((a) => address.safeParse(a).success), 'must be e-mail addresses separated by commas'),
  subject: z.string().max(500).describe('The subject line.'),
  body: z.string().min(1).max(20_000).describe('The plain-text body of the e-mail, with greeting and sign-off.'),
})

const splitAddresses = (to: string) =>
  to
    .split(/[,;]/)
    .map((a) => a.trim())
    .filter(Boolean)

/**
 * `send_email`: the model drafts an e-mail; the chat shows it as an editable card that the user
 * sends from their own mail program. The server never sends mail on a model's say-so.
 */
export const sendEmailTool = defineTool({
  name: 'send_email',
  description:
    'Draft an e-mail for the user. The draft is shown to the user as an editable card; the user reviews it and sends it ' +
    'from their own mail program. Nothing is sent by this tool. Use it when the user asks you to write or send an e-mail.',
  parameters,
  run: async (args) => {
    const draft = { to: splitAddresses(args.to).join(', '), subject: args.subject.trim(), body: args.body }
    return {
      content:
        'The draft was shown to the user as an editable e-mail card. It has NOT been sent: the user reviews it and sends it ' +
        'from their own mail program. Tell the user briefly that the draft is ready; do not repeat it in full.',
      data: draft,
    }
  },
})

import { defineRoute } from '../../lib/route'
import { sendMessageBody, threadIdParams } from '../threads/schema'
import { sendMessage } from './send'

const tag = 'Chat'

export const chatRoutes = [
  defineRoute(
    {
      method: 'post',
      path: '/threads/:id/messages',
      tag,
      summary: 'Send a message; the reply streams back as Server-Sent Events (see README "Chat stream")',
      access: 'user',
      params: threadIdParams,
      body: sendMessageBody,
      stream: true,
      errors: ['THREAD_NOT_FOUND', 'NO_MODEL_FOUND', 'REPLY_IN_PROGRESS'],
    },
    ({ c, deps, user, params, body }) =>
      sendMessage(deps, user, params.id, { kind: 'send', content: body.content, replaceLast: body.replaceLast ?? false }, c.req.raw.signal),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/threads/:id/regenerate',
      tag,
      summary: 'Replace the last reply with a new one, streamed like a sent message',
      access: 'user',
      params: threadIdParams,
      stream: true,
      errors: ['THREAD_NOT_FOUND', 'NO_MODEL_FOUND', 'REPLY_IN_PROGRESS', 'NOTHING_TO_REGENERATE'],
    },
    ({ c, deps, user, params }) => sendMessage(deps, user, params.id, { kind: 'regenerate' }, c.req.raw.signal),
  ),
]

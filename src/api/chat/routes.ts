import { defineRoute } from '../../lib/route'
import { sendMessageBody, threadIdParams } from '../threads/schema'
import { attachReply } from './attach'
import { attachQuery, replyParams } from './schema'
import { sendMessage } from './send'
import { stopReply } from './stop'

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
    ({ deps, user, params, body }) => sendMessage(deps, user, params.id, { kind: 'send', content: body.content, replaceLast: body.replaceLast ?? false }),
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
    ({ deps, user, params }) => sendMessage(deps, user, params.id, { kind: 'regenerate' }),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/threads/:id/messages/:messageId/stream',
      tag,
      summary: "Attach to a reply's stream from where the client left off (Last-Event-ID or `after`): what it missed, then the reply as it goes on, then its end",
      access: 'user',
      params: replyParams,
      query: attachQuery,
      stream: true,
      errors: ['THREAD_NOT_FOUND', 'MESSAGE_NOT_FOUND'],
    },
    ({ c, deps, user, params, query }) => attachReply(deps, user, params.id, params.messageId, c.req.header('last-event-id') ?? query.after),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/threads/:id/messages/:messageId/stop',
      tag,
      summary: 'Stop a streaming reply (whichever tab or server process runs it); what streamed is kept as stopped',
      access: 'user',
      params: replyParams,
      status: 204,
      errors: ['THREAD_NOT_FOUND', 'MESSAGE_NOT_FOUND'],
    },
    ({ deps, user, params }) => stopReply(deps, user, params.id, params.messageId),
  ),
]

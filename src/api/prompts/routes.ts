import { z } from 'zod'
import { defineRoute } from '../../lib/route'
import * as s from './schema'
import * as service from './service'

const tag = 'Prompts'

export const promptRoutes = [
  defineRoute(
    { method: 'post', path: '/prompts', tag, summary: 'Save a prompt', access: 'user', body: s.promptBody, response: s.promptResponse, status: 201 },
    async ({ c, deps, user, body }) => c.json(await service.createPrompt(deps, user, body), 201),
  ),
  defineRoute(
    { method: 'get', path: '/prompts', tag, summary: "The caller's prompts, last edited first", access: 'user', query: s.listPromptsQuery, response: z.array(s.promptResponse) },
    ({ deps, user, query }) => service.listPrompts(deps, user, query.search),
  ),
  defineRoute(
    { method: 'get', path: '/prompts/:id', tag, summary: 'One prompt', access: 'user', params: s.promptIdParams, response: s.promptResponse, errors: ['PROMPT_NOT_FOUND'] },
    ({ deps, user, params }) => service.getPrompt(deps, user, params.id),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/prompts/:id',
      tag,
      summary: 'Change a prompt',
      access: 'user',
      params: s.promptIdParams,
      body: s.promptBody,
      response: s.promptResponse,
      errors: ['PROMPT_NOT_FOUND'],
    },
    ({ deps, user, params, body }) => service.updatePrompt(deps, user, params.id, body),
  ),
  defineRoute(
    { method: 'delete', path: '/prompts/:id', tag, summary: 'Delete a prompt', access: 'user', params: s.promptIdParams, status: 204, errors: ['PROMPT_NOT_FOUND'] },
    async ({ deps, user, params }) => {
      await service.deletePrompt(deps, user, params.id)
    },
  ),
]

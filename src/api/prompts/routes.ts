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
    { method: 'get', path: '/prompts', tag, summary: "The prompts the caller may use, last edited first: their own and those shared with them", access: 'user', query: s.listPromptsQuery, response: z.array(s.promptResponse) },
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
      errors: ['PROMPT_NOT_FOUND', 'FORBIDDEN'],
    },
    ({ deps, user, params, body }) => service.updatePrompt(deps, user, params.id, body),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/prompts/:id/sharing',
      tag,
      summary: 'Share a prompt read-only with the organisation and/or groups, or keep it private (owner only)',
      access: 'user',
      params: s.promptIdParams,
      body: s.promptSharingBody,
      response: s.promptResponse,
      errors: ['PROMPT_NOT_FOUND', 'FORBIDDEN'],
    },
    ({ deps, user, params, body }) => service.sharePrompt(deps, user, params.id, body),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/prompts/:id/copy',
      tag,
      summary: "Make an own, private copy of a prompt the caller may use (to change it)",
      access: 'user',
      params: s.promptIdParams,
      response: s.promptResponse,
      status: 201,
      errors: ['PROMPT_NOT_FOUND'],
    },
    async ({ c, deps, user, params }) => c.json(await service.copyPrompt(deps, user, params.id), 201),
  ),
  defineRoute(
    { method: 'delete', path: '/prompts/:id', tag, summary: 'Delete a prompt', access: 'user', params: s.promptIdParams, status: 204, errors: ['PROMPT_NOT_FOUND', 'FORBIDDEN'] },
    async ({ deps, user, params }) => {
      await service.deletePrompt(deps, user, params.id)
    },
  ),
]

import { z } from 'zod'
import { defineRoute } from '../../lib/route'
import { readOnlySharingBody } from '../groups/schema'
import * as s from './schema'
import * as service from './service'

const tag = 'Agents'

export const agentRoutes = [
  defineRoute(
    {
      method: 'post',
      path: '/agents',
      tag,
      summary: 'Create an agent (name, instructions, a permitted model, knowledge collections, built-in tools)',
      access: 'user',
      body: s.agentBody,
      response: s.agentResponse,
      status: 201,
      errors: ['MODEL_NOT_FOUND', 'VALIDATION_FAILED'],
    },
    async ({ c, deps, user, body }) => c.json(await service.createAgent(deps, user, body), 201),
  ),
  defineRoute(
    { method: 'get', path: '/agents', tag, summary: "The agents the caller may use (their own and those shared with them), with whether their model is usable", access: 'user', response: z.array(s.agentResponse) },
    ({ deps, user }) => service.listAgents(deps, user),
  ),
  defineRoute(
    { method: 'get', path: '/agents/:id', tag, summary: 'One agent', access: 'user', params: s.agentIdParams, response: s.agentResponse, errors: ['AGENT_NOT_FOUND'] },
    ({ deps, user, params }) => service.getAgent(deps, user, params.id),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/agents/:id',
      tag,
      summary: 'Change an agent; the next reply uses the change',
      access: 'user',
      params: s.agentIdParams,
      body: s.agentBody,
      response: s.agentResponse,
      errors: ['AGENT_NOT_FOUND', 'FORBIDDEN', 'MODEL_NOT_FOUND', 'VALIDATION_FAILED'],
    },
    ({ deps, user, params, body }) => service.updateAgent(deps, user, params.id, body),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/agents/:id/sharing',
      tag,
      summary: 'Share an agent read-only (with its tools and collections) with the organisation and/or groups, or keep it private (owner only)',
      access: 'user',
      params: s.agentIdParams,
      body: readOnlySharingBody,
      response: s.agentResponse,
      errors: ['AGENT_NOT_FOUND', 'FORBIDDEN'],
    },
    ({ deps, user, params, body }) => service.shareAgent(deps, user, params.id, body),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/agents/:id/copy',
      tag,
      summary: 'Make an own, private copy of an agent the caller may use (to change it)',
      access: 'user',
      params: s.agentIdParams,
      response: s.agentResponse,
      status: 201,
      errors: ['AGENT_NOT_FOUND'],
    },
    async ({ c, deps, user, params }) => c.json(await service.copyAgent(deps, user, params.id), 201),
  ),
  defineRoute(
    { method: 'delete', path: '/agents/:id', tag, summary: 'Delete an agent', access: 'user', params: s.agentIdParams, status: 204, errors: ['AGENT_NOT_FOUND', 'FORBIDDEN'] },
    async ({ deps, user, params }) => {
      await service.deleteAgent(deps, user, params.id)
    },
  ),
]

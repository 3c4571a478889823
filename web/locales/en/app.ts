// The English strings of the signed-in screens but the settings and administration ones (./manage.ts): loaded with the first page under the app's layout (web/lib/i18n.ts).
import chat from './chat.json'
import prompts from './prompts.json'
import agents from './agents.json'
import tools from './tools.json'
import sources from './sources.json'
import knowledge from './knowledge.json'

export default { chat, prompts, agents, tools, sources, knowledge }

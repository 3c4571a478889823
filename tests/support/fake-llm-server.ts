/**
 * Runs the fake model provider on its own, for local development and for e2e runs:
 *
 *   node_modules/.bin/bun tests/support/fake-llm-server.ts [--port 4010] [--allow-missing-key]
 *
 * The first line printed is the server's URL (for scripts that start it); the lines after it say
 * how to point Kontor at it. Port 0 picks a free port. Stops on Ctrl+C or SIGTERM.
 */
import { parseArgs } from 'node:util'
import { startFakeLlm } from './fake-llm'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.FAKE_LLM_PORT ?? '4010' },
    'allow-missing-key': { type: 'boolean', default: false },
  },
})

const fake = await startFakeLlm({ port: Number(values.port), requireKey: !values['allow-missing-key'] })
console.log(fake.url)
console.log(`
Fake model provider (OpenAI, Mistral, Anthropic wire formats). Any key but 'wrong-key' is accepted.
  OPENAI_BASE_URL=${fake.url}/v1 OPENAI_API_KEY=fake
  MISTRAL_BASE_URL=${fake.url} MISTRAL_API_KEY=fake
  ANTHROPIC_BASE_URL=${fake.url} ANTHROPIC_API_KEY=fake
  OLLAMA_BASE_URL=${fake.url}/v1${values['allow-missing-key'] ? '' : '  (needs --allow-missing-key to work without a key)'}
Markers in a message script the reply, e.g. [[fake:delay=80]] [[fake:reasoning]] [[fake:error=429]].`)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    fake.close()
    process.exit(0)
  })
}

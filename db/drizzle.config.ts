import { defineConfig } from 'drizzle-kit'

export default defineConfig({
  dialect: 'turso',
  schema: './db/schema/index.ts',
  out: './drizzle',
  // Migrating a Turso database ahead of a Workers deploy needs its token too.
  dbCredentials: { url: process.env.DATABASE_URL ?? 'file:./data/kontor.db', authToken: process.env.DATABASE_AUTH_TOKEN },
})

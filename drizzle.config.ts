import { defineConfig } from 'drizzle-kit'

// Generates the SQL migrations in db/migrations from db/schema.ts
// (`npm run db:generate`); the app applies them on start.
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema.ts',
  out: './db/migrations',
})

import { defineConfig } from 'drizzle-kit'

// Generates the SQL migrations in db/migrations from the schema in db/schema/
// (`npm run db:generate`); the app applies them on start (db/client.ts).
// db/schema.test.ts checks that running it now writes nothing, i.e. that the
// migrations and their snapshots agree with the schema.
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema/index.ts',
  out: './db/migrations',
})

// Column helpers the schema files share. Not tables: db/schema/index.ts does
// not re-export this file.
import { bigint, customType, timestamp } from 'drizzle-orm/pg-core'

/**
 * jsonb, read back as the driver parsed it. drizzle's own jsonb column parses a
 * string a second time, so a stored JSON string that looks like JSON ("12345678",
 * "true") came back as a number or a boolean (a KvK number in the settings).
 * Both drivers (pg and PGlite) already parse jsonb into JS values.
 */
export const jsonb = customType<{ data: unknown; driverData: unknown }>({
  dataType: () => 'jsonb',
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => value,
})

/** bigint identity primary key; the sequence is <table>_id_seq. */
export const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity()
/** A bigint reference to another table's id. */
export const ref = (name: string) => bigint(name, { mode: 'number' })
/** timestamp with time zone, as a Date. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

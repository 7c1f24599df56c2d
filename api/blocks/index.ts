// The blocks domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).
export {
  blockedBetween,
  blockedBetweenSql,
  blockedWithSql,
  fileReport,
  setBlock,
} from './blocks.ts'

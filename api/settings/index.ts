// The settings domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).
export {
  DEFAULT_SETTINGS,
  loadSettings,
  operatorSettings,
  siteKeyOf,
  siteKeys,
} from './settings.ts'

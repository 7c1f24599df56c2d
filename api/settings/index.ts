// The settings domain's entry: what other domains may use of it (layers.test.ts
// forbids imports of its other files from outside the folder).

export { settingsRoutes } from './routes.ts'
export { deleteSetting, putSetting, settingRows } from './rows-sql.ts'
export {
  cachedOperatorSettings,
  cachedSiteKeyOf,
  companyInfo,
  DEFAULT_SETTINGS,
  forgetOperatorSettings,
  loadSettings,
  type Operator,
  operatorSettings,
  SETTINGS_CACHE,
  siteKeyOf,
  siteKeys,
} from './settings.ts'
export { shellFor } from './shell.ts'
export { keptSecret, storedValue } from './stored.ts'
export { type VapidKeys, vapidKeys } from './vapid.ts'

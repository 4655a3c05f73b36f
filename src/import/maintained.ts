import type { JsonObject, KindName } from '../core/types.js'
import { isObject } from '../core/json.js'

/**
 * Writable fields that are not a person's to maintain: the service fills them in from scans
 * ("technologies identified in the target during scans"). Declaring them would report drift
 * after every scan that finds a new technology. Never imported.
 */
export const FILLED_BY_SCANS: Readonly<Record<KindName, readonly string[]>> = {
  target: ['site.stack'],
  asset: [],
  agent: [],
}

const site = (resource: JsonObject): JsonObject => (isObject(resource.site) ? resource.site : {})

/**
 * Fields that mean something only while a switch is on. While it is off the service still
 * answers a value (`otp_type: totp` on a target without one-time passwords, API settings on a
 * web application), which is left out like a default unless --include-defaults.
 */
export const ONLY_WHILE: Readonly<Record<KindName, Readonly<Record<string, (resource: JsonObject) => boolean>>>> = {
  target: {
    // The document: "api_scan_settings (if the target is an API)".
    api_scan_settings: (resource) => resource.type === 'api',
    'site.otp_type': (resource) => site(resource).has_otp === true,
    'site.logout_condition': (resource) => site(resource).logout_detection_enabled === true,
  },
  asset: {},
  agent: {},
}

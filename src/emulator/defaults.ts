import type { JsonObject } from './values.js'
import { SEED_TIME, stableId, stableUuid, WEB_USER } from './values.js'

/** The account every emulated resource belongs to. */
export const ACCOUNT_ID = 'Acc7DemoQx2W'

/** The API scan settings of a target that never had any, as the service returns them. */
export function defaultApiScanSettings(): JsonObject {
  return {
    api_schema_type: 'openapi',
    api_schema_url: null,
    api_schema_file: null,
    api_schema_method: null,
    custom_api_parameters: [],
    media_type: 'application/json',
    api_login_url: '',
    api_login_payload: '',
    api_login_payload_is_sensitive: false,
    api_login_enabled: false,
    api_login_token_field: '',
    token_prefix: '',
    token_parameter_name: '',
    token_parameter_location: 'header',
    api_login_method: 'api_login',
    api_payload_login_enabled_secondary: false,
    api_headers_cookies_login_enabled_secondary: false,
    api_login_payload_secondary: '',
    api_login_payload_secondary_is_sensitive: false,
    openapi_check_session_method: '',
    openapi_check_session_media_type: '',
    openapi_check_session_expired_payload: null,
  }
}

/**
 * A target with every response field at its default, in the document's order. `labels`,
 * `scan_profile` and `scanning_agent` are placeholders: they are rendered from the registries.
 */
export function defaultTarget(id: string): JsonObject {
  return {
    id,
    site: {
      id: stableId('site', id),
      name: '',
      desc: '',
      url: '',
      host: '',
      has_form_login: false,
      form_login_url: '',
      form_login_check_pattern: '',
      form_login: [],
      logout_detection_enabled: false,
      has_sequence_login: false,
      has_basic_auth: false,
      basic_auth: null,
      headers: [],
      cookies: [],
      whitelist: [],
      blacklist: [],
      auth_enabled: false,
      logout_condition: 'any',
      check_session_url: '',
      check_session_operation_name: '',
      has_otp: false,
      otp_secret: '',
      otp_secret_is_sensitive: true,
      otp_algorithm: 'SHA1',
      otp_digits: 6,
      otp_field: '',
      otp_submit: '',
      otp_login_sequence_totp_value: '',
      otp_type: 'totp',
      otp_url: '',
      collection_authentication_enabled: false,
      collection_check_session_folder: '',
      stack: [],
      api_scan_settings: defaultApiScanSettings(),
      is_mtls_active: false,
      is_signature_active: false,
      is_mle_active: false,
      has_authentication: false,
      verified: true,
      verification_token: stableUuid('verification:' + id),
      verification_date: SEED_TIME,
      verification_method: 'file',
      verification_last_error: '',
      changed: SEED_TIME,
      changed_by: WEB_USER,
    },
    lows: 0,
    mediums: 0,
    highs: 0,
    criticals: 0,
    risk: null,
    last_scan: null,
    running_scan: null,
    next_scan: null,
    assets: [],
    scan_profile: null,
    type: 'single',
    unlimited: false,
    report_type: 'default',
    report_fileformat: 'pdf',
    allowed_scan_profiles: [],
    labels: [],
    scanning_agent: null,
    include_deduplicated_endpoints: null,
    blackout_period: null,
    fail_fast: true,
    login_video: '',
    changed: SEED_TIME,
    changed_by: WEB_USER,
    incremental: false,
    reduced_scope: false,
    schedule_incremental: false,
    schedule_reduced_scope: false,
    crawl_sequences_only: false,
    schedule_crawl_sequences_only: false,
    cancel_scan_on_nav_seq_failure: false,
  }
}

/**
 * A target as `POST /targets/` starts it, before the request's fields land: the defaults of
 * `defaultTarget`, not yet verified (the owner proves control of the site afterwards), written now.
 */
export function createdTarget(id: string, now: string): JsonObject {
  const target = defaultTarget(id)
  const site = target.site as JsonObject
  Object.assign(site, { verified: false, verification_date: null, verification_method: null, changed: now })
  target.changed = now
  return target
}

/** A discovered asset with every response field at its default (owners and labels are rendered). */
export function defaultAsset(id: string): JsonObject {
  return {
    id,
    account: ACCOUNT_ID,
    name: '',
    url: '',
    type: 'api', // the document: "`web` (Web) or `api` (API); default `api`"
    last_seen: SEED_TIME,
    first_seen: SEED_TIME,
    sources: [],
    technologies: [],
    authorities: '',
    risk: null,
    score: '',
    security_headers_url: '',
    state: 'NEW',
    screenshot: null,
    target: { id: stableId('asset-target', id), name: '', desc: '' },
    running_scan: null,
    blackout_period: null,
    changed: SEED_TIME,
    changed_by: WEB_USER,
    owners: [],
    comment: null,
    labels: [],
    redirect_from: [],
    redirect_to: '',
    api_schema_file: null,
  }
}

/** A scanning agent with every response field at its default (teams are rendered). */
export function defaultAgent(id: string): JsonObject {
  return {
    id,
    name: '',
    installer_generated: false,
    teams: [],
    online: true,
    fallback: false,
    rx_bytes: 0,
    tx_bytes: 0,
    latest_handshake: 0,
  }
}

/** A blackout period created by a write that gives only some of its members. */
export function defaultBlackoutPeriod(): JsonObject {
  return { begin: '00:00:00', cease: '00:00:00', weekdays: [], enabled: true, timezone: 'UTC' }
}

/** Members the service fills in on a header or cookie entry. */
export const HEADER_ENTRY_DEFAULTS = {
  value_is_sensitive: false,
  allow_testing: false,
  authentication: false,
  authentication_secondary: false,
}

/** Members the service fills in on a form-login field or custom API parameter. */
export const NAME_VALUE_ENTRY_DEFAULTS = { value_is_sensitive: false }

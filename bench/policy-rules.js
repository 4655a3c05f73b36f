// The benchmark's twenty rules (bench/policies.js), of the kinds a security team writes.
const labelled = (name) => ({ required: ['labels'], properties: { labels: { contains: { required: ['name'], properties: { name: { const: name } } } } } })

/** Twenty rules of the kinds a security team writes: `when`s on labels and types, requires on nested fields. */
export const RULES = [
  { name: 'production-has-blackout', kind: 'target', when: labelled('production'), require: { required: ['blackout_period'], properties: { blackout_period: { required: ['begin', 'cease', 'weekdays'] } } } },
  { name: 'production-blackout-enabled', kind: 'target', when: labelled('production'), require: { properties: { blackout_period: { properties: { enabled: { const: true } } } } } },
  { name: 'pci-report-type', kind: 'target', when: labelled('pci'), require: { required: ['report_type'], properties: { report_type: { enum: ['pci', 'pci_v3_2_1', 'pci4', 'pci_v4_0_1'] } } } },
  { name: 'target-has-label', kind: 'target', require: { required: ['labels'], properties: { labels: { type: 'array', minItems: 1 } } } },
  { name: 'target-has-name', kind: 'target', require: { required: ['site'], properties: { site: { required: ['name', 'url'], properties: { name: { minLength: 3 } } } } } },
  { name: 'https-only', kind: 'target', require: { properties: { site: { properties: { url: { pattern: '^https://' } } } } } },
  { name: 'api-login', kind: 'target', when: { required: ['type'], properties: { type: { const: 'api' } } }, require: { required: ['api_scan_settings'] } },
  { name: 'label-colours', kind: 'target', require: { properties: { labels: { items: { properties: { color: { pattern: '^(#[0-9a-fA-F]{6}|[a-z]+)$' } } } } } } },
  { name: 'team-label', kind: 'target', require: { properties: { labels: { contains: { properties: { name: { pattern: '^team-' } } } } } } },
  { name: 'blackout-timezone', kind: 'target', when: { required: ['blackout_period'] }, require: { properties: { blackout_period: { required: ['timezone'] } } } },
  { name: 'asset-owned', kind: 'asset', require: { required: ['owners'], properties: { owners: { type: 'array', minItems: 1 } } } },
  { name: 'asset-state', kind: 'asset', require: { required: ['state'], properties: { state: { enum: ['NEW', 'ACTIVE', 'ARCHIVED', 'HIDDEN'] } } } },
  { name: 'archived-commented', kind: 'asset', when: { properties: { state: { const: 'ARCHIVED' } } }, require: { required: ['comment'] } },
  { name: 'asset-owner-is-team', kind: 'asset', require: { properties: { owners: { items: { properties: { name: { pattern: '^team-' } } } } } } },
  { name: 'asset-comment-length', kind: 'asset', require: { properties: { comment: { maxLength: 500 } } } },
  { name: 'asset-labelled', kind: 'asset', when: { properties: { state: { const: 'ACTIVE' } } }, require: { required: ['labels'] } },
  { name: 'agent-in-team', kind: 'agent', require: { required: ['teams'], properties: { teams: { type: 'array', minItems: 1 } } } },
  { name: 'agent-two-teams', kind: 'agent', require: { properties: { teams: { maxItems: 5 } } } },
  { name: 'agent-named', kind: 'agent', require: { required: ['name'], properties: { name: { pattern: '^agent-' } } } },
  { name: 'agent-not-fallback', kind: 'agent', require: { properties: { fallback: { const: false } } } },
].map((rule) => ({ description: rule.name.replaceAll('-', ' '), level: 'warning', ...rule }))

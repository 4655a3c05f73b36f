// The plan is a value: saved-plan encoding and decoding, staleness and the --max-changes check are
// pure functions, tested here without HTTP.
import { describe, expect, it } from 'vitest'
import type { JsonObject } from '../../src/core/types.js'
import { buildPlan, liveKey } from '../../src/plan/build-plan.js'
import { checkMaxChanges } from '../../src/plan/safety.js'
import { decodeSavedPlan, encodeSavedPlan, sameService, savedPlanChecksum } from '../../src/plan/saved-plan.js'
import { checkFreshness, doneNote, freshnessProblem } from '../../src/plan/staleness.js'
import { planDocument, renderPlan } from '../../src/render/index.js'
import type { SavedPlan } from '../../src/schema/generated.js'
import { emptyState, secretContext } from '../../src/secrets/state.js'
import { declare } from '../helpers/declare.js'

const KEY = 'plan-Key-1'
const noSecrets = secretContext(emptyState(), KEY)
const LIVE: Record<string, JsonObject> = {
  [liveKey('target', 'T1')]: { id: 'T1', site: { name: 'old', url: 'https://a.example.com/', desc: 'x' }, blackout_period: { begin: '08:00:00', cease: '18:00:00', weekdays: [6], timezone: 'UTC', enabled: false } },
  [liveKey('asset', 'A1')]: { id: 'A1', name: 'a.example.com', state: 'NEW', owners: [{ name: 'ops' }], comment: 'kept', labels: [] },
}
const declared = (env: Record<string, string> = { DESC: 'from-env' }) => [
  declare('target', { id: 'T1', site: { name: 'new', desc: '${DESC}' }, blackout_period: { begin: '07:00', cease: '18:00', weekdays: [6] } }, env),
  declare('asset', { id: 'A1', state: 'HIDDEN' }),
]

function saved(key = KEY): SavedPlan {
  const result = buildPlan(declared(), new Map(Object.entries(LIVE)), noSecrets)
  return encodeSavedPlan({ changed: result.changed, plan: planDocument(result.plan), apiUrl: 'http://127.0.0.1:1', paths: ['.'], version: '0.0.0' }, key)
}

/** A saved plan edited and signed again with the key (as only a holder of the key can). */
function resigned(edit: (document: any) => void, key = KEY): SavedPlan {
  const { checksum: _, ...document } = structuredClone(saved(key))
  edit(document)
  return { ...document, checksum: savedPlanChecksum(document, key) } as SavedPlan
}

const decode = (document: unknown, env: Record<string, string | undefined> = { DESC: 'from-env' }, key = KEY) => decodeSavedPlan(document, { key, env, file: 'p.json' })

describe('saved plans', () => {
  it('hold the declared fields as templates and no request; decode back to the same declarations and plan', () => {
    const document = saved()
    expect(JSON.stringify(document)).not.toContain('from-env')
    expect(JSON.stringify(document)).toContain('${DESC}')
    expect(JSON.stringify(document.resources)).not.toContain('request')
    const decoded = decode(document)
    expect(decoded.resources.map((r) => [r.desired.kind, r.desired.id, r.change.path])).toEqual([
      ['target', 'T1', '/targets/T1/'],
      ['asset', 'A1', '/discovery/assets/A1/'],
    ])
    expect((decoded.resources[0].desired.fields.site as JsonObject).desc).toBe('from-env')
    expect(decoded.resources[0].desired.templates.get('site.desc')).toBe('${DESC}')
    expect(decoded.plan.summary).toEqual({ change: 2, unchanged: 0 })
  })

  it('the checksum is keyed: another key, or an edit signed the old way, is refused', () => {
    expect(() => decode(saved(), undefined, 'other-key')).toThrow('was modified after it was written (checksum mismatch), or was written with another key')
    const edited = structuredClone(saved()) as any
    edited.resources[1].id = 'A2'
    expect(() => decode(edited)).toThrow('checksum mismatch')
  })

  it('a change naming another resource\'s path is refused even when signed', () => {
    const document = resigned((d) => (d.plan.changes[1].path = '/discovery/assets/OTHER/'))
    expect(() => decode(document)).toThrow("the saved plan's change of asset A1 names PUT /discovery/assets/OTHER/, not the resource's own request")
  })

  it('changes and declarations must pair by kind and id', () => {
    expect(() => decode(resigned((d) => d.plan.changes.pop()))).toThrow('asset A1 has no change in the plan')
    expect(() => decode(resigned((d) => d.resources.pop()))).toThrow('the plan changes asset/A1 but holds no declaration of it')
  })

  it('only the variables the declarations reference are expanded, never SCANSYNC_*', () => {
    const document = resigned((d) => (d.resources[0].fields.site.name = '${SCANSYNC_API_TOKEN}'))
    expect(() => decode(document, { DESC: 'x', SCANSYNC_API_TOKEN: 'tok-secret' })).toThrow("site.name: refers to ${SCANSYNC_API_TOKEN}: scansync's own variables are never expanded from a saved plan")
    const fallback = resigned((d) => (d.resources[0].fields.site.name = '${SCANSYNC_API_TOKEN:-x}'))
    expect(() => decode(fallback, { DESC: 'x', SCANSYNC_API_TOKEN: 'tok-secret' })).toThrow('never expanded')
    // A literal `$${` stays literal.
    // (The edit changes the declared values: the seal of the expanded values is dropped with it.)
    const literal = resigned((d) => {
      d.resources[0].fields.site.name = 'costs $${SCANSYNC_X}'
      delete d.resources[0].variables
    })
    expect((decode(literal).resources[0].desired.fields.site as JsonObject).name).toBe('costs ${SCANSYNC_X}')
    expect(() => decode(saved(), {})).toThrow('environment variable DESC is not set')
  })

  it("a variable holding the applying job's token or state key (or holding either inside it) is refused, not sent", () => {
    expect(() => decode(saved(), { DESC: 'apply-job-Token-77', SCANSYNC_API_TOKEN: 'apply-job-Token-77' })).toThrow("environment variable DESC holds scansync's token or state key")
    expect(() => decode(saved(), { DESC: 'Bearer apply-job-Token-77', SCANSYNC_API_TOKEN: 'apply-job-Token-77' })).toThrow("environment variable DESC holds scansync's token or state key")
    expect(() => decode(saved(), { DESC: 'x the-State-Key-9', SCANSYNC_STATE_KEY: 'the-State-Key-9' })).toThrow("environment variable DESC holds scansync's token or state key")
  })

  it('a plan of another format version is refused with a clear message', () => {
    expect(() => decode({ ...saved(), format_version: 1 })).toThrow('was saved by another version of scansync (format 1); run scansync plan --out again')
    expect(() => decode({ kind: 'something' })).toThrow('p.json is not a scansync saved plan')
  })

  it('keep which changes are sets, so that apply --plan shows the items added and removed as plan does', () => {
    const live = {
      [liveKey('target', 'T1')]: { id: 'T1', site: { name: 'n', url: 'https://a.example.com/', blacklist: ['https://a.example.com/old'] }, labels: [{ name: 'a' }], blackout_period: LIVE[liveKey('target', 'T1')].blackout_period },
      [liveKey('agent', 'G1')]: { id: 'G1', name: 'g', teams: [{ id: 'Tm1' }] },
    } as Record<string, JsonObject>
    const declarations = [
      declare('target', { id: 'T1', site: { name: 'm', blacklist: ['https://a.example.com/new'] }, labels: ['a', 'b'], blackout_period: { begin: '08:00', cease: '18:00', weekdays: [6, 7] } }),
      declare('agent', { id: 'G1', teams: [{ id: 'Tm1' }, { id: 'Tm2' }] }),
    ]
    const result = buildPlan(declarations, new Map(Object.entries(live)), noSecrets)
    const document = encodeSavedPlan({ changed: result.changed, plan: planDocument(result.plan), apiUrl: 'http://127.0.0.1:1', paths: ['.'], version: '0.0.0' }, KEY)
    const decoded = decode(document, {})
    const flags = (plan: typeof result.plan) => plan.changes.flatMap((c) => c.fields.map((f) => [`${c.kind} ${f.path}`, f.set === true]))
    expect(flags(decoded.plan)).toEqual(flags(result.plan))
    expect(flags(decoded.plan)).toEqual(
      expect.arrayContaining([
        ['target site.name', false],
        ['target site.blacklist', true],
        ['target labels', true],
        ['target blackout_period.weekdays', true],
        ['agent teams', true],
      ]),
    )
    const text = renderPlan(decoded.plan, 'text')
    expect(text).toBe(renderPlan(result.plan, 'text'))
    expect(text).toContain('    site.blacklist:\n        + "https://a.example.com/new"\n        - "https://a.example.com/old"\n')
  })

  it('the same service, however its URL is written', () => {
    expect(sameService('HTTP://127.0.0.1:80//', 'http://127.0.0.1')).toBe(true)
    expect(sameService('http://127.0.0.1:8080/api', 'http://127.0.0.1:8080/')).toBe(false)
  })
})

describe('staleness', () => {
  const planned = () => decode(saved()).resources
  const live = (edit: (live: Record<string, any>) => void = () => undefined) => {
    const copy = structuredClone(LIVE) as Record<string, any>
    edit(copy)
    return new Map(Object.entries(copy) as [string, JsonObject][])
  }

  it('undeclared fields changed: ready, and the comparison carries the new values', () => {
    const freshness = checkFreshness(planned(), live((l) => {
      l['asset/A1'].comment = 'edited'
      l['target/T1'].blackout_period.timezone = 'Europe/Paris'
    }), noSecrets)
    expect(freshness.stale).toEqual([])
    expect(freshness.ready.map((r) => r.comparison.raw.id)).toEqual(['T1', 'A1'])
    expect(freshness.ready[1].comparison.live.comment).toBe('edited')
    expect(freshnessProblem(freshness, 'saved')).toBeUndefined()
  })

  it('a declared field changed: stale, named', () => {
    const freshness = checkFreshness(planned(), live((l) => (l['target/T1'].site.desc = 'y')), noSecrets)
    expect(freshness.stale.map((r) => r.desired.id)).toEqual(['T1'])
    expect(freshnessProblem(freshness, 'saved')).toBe('the saved plan is stale: target T1 changed on the service since it was made; nothing was sent. Run scansync plan --out again.')
    expect(freshnessProblem(freshness, 'confirmed')).toContain('target T1 changed on the service while the plan waited for confirmation; nothing was sent.')
  })

  it('already as planned: done, not stale', () => {
    const freshness = checkFreshness(planned(), live((l) => {
      l['target/T1'].site.name = 'new'
      l['target/T1'].site.desc = 'from-env'
      l['target/T1'].blackout_period.begin = '07:00:00'
      l['asset/A1'].state = 'HIDDEN'
    }), noSecrets)
    expect(freshness.done.map((r) => r.desired.id)).toEqual(['T1', 'A1'])
    expect(freshnessProblem(freshness, 'saved')).toBeUndefined()
    expect(doneNote(freshness, 'saved')).toBe('The saved plan was already applied: every field it changes is at its planned value; nothing was sent.')
  })
})

describe('--max-changes', () => {
  const plan = { changes: buildPlan(declared(), new Map(Object.entries(LIVE)), noSecrets).plan.changes, summary: { change: 2, unchanged: 0 } }
  it('refuses a plan with more changes, whole', () => {
    expect(() => checkMaxChanges(plan, 1)).toThrow('the plan has 2 changes, more than --max-changes 1; nothing was sent')
    expect(() => checkMaxChanges(plan, 2)).not.toThrow()
    expect(() => checkMaxChanges(plan, undefined)).not.toThrow()
    const one = { ...plan, changes: plan.changes.slice(0, 1) }
    expect(() => checkMaxChanges(one, 0)).toThrow('the plan has 1 change, more than --max-changes 0; nothing was sent')
  })
})

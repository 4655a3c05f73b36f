// Property tests of the diff engine (issue 4): a resource declared as x and served as x (by the
// emulator's own store and response shaping, whatever way it writes the values) plans empty, and
// the same inputs always give byte-identical JSON plans. Then, for apply (issue 5): the request
// built from any plan, taken by the emulator's write path, leaves nothing to plan.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createAjv } from '../../src/schema/ajv.js'
import { formatDiagnostic } from '../../src/core/diagnostics.js'
import { loadFile } from '../../src/config/load.js'
import type { DesiredResource, JsonObject, KindName } from '../../src/core/types.js'
import { handleApi, type ApiContext } from '../../src/emulator/routes.js'
import { obfuscate } from '../../src/emulator/sensitive.js'
import { render } from '../../src/emulator/shape.js'
import { State } from '../../src/emulator/state.js'
import { Clock } from '../../src/emulator/values.js'
import { buildPlan, compare, liveKey } from '../../src/plan/build-plan.js'
import { diffResource } from '../../src/plan/diff.js'
import { renderPlan } from '../../src/render/index.js'
import { KINDS } from '../../src/resources/index.js'
import { emptyState, recordSecret, secretContext } from '../../src/secrets/state.js'
import { baseSeed, RESOURCE, seedForm, serviceForm, yamlOf, type ServiceForm } from './arbitraries.js'

const TOKEN = 'property-token'
const KIND_LIST: KindName[] = ['target', 'asset', 'agent']
const ID: Record<KindName, string> = { target: 'TargetGen001', asset: 'AssetGen0001', agent: 'AgentGen0001' }
const SEED_KEY: Record<KindName, 'targets' | 'assets' | 'agents'> = { target: 'targets', asset: 'assets', agent: 'agents' }
const RUNS = Number(process.env.SCANSYNC_PROPERTY_RUNS ?? 150)

function declareAll(kind: KindName, resources: JsonObject[]): DesiredResource[] {
  const { resources: declared, diagnostics } = loadFile(`${kind}s.yaml`, Buffer.from(yamlOf(kind, resources)), {})
  if (diagnostics.length > 0) throw new Error(diagnostics.map(formatDiagnostic).join('\n'))
  return declared
}

/** A store holding `resources` (seed forms), as the emulator keeps them. */
function storeOf(kind: KindName, resources: JsonObject[]): State {
  const seed = { ...baseSeed(), [SEED_KEY[kind]]: [...(kind === 'agent' ? baseSeed().agents : []), ...resources] }
  return State.fromSeed(seed)
}

/** The resource as GET answers it, through JSON as over the wire. */
const served = (state: State, kind: KindName, id: string, obfuscated = false): JsonObject => {
  const body = render(state, kind, id)
  return JSON.parse(JSON.stringify(obfuscated ? obfuscate(body) : body)) as JsonObject
}

const noSecrets = secretContext(emptyState(), TOKEN)

describe.each(KIND_LIST)('%s: diff(x, x) is empty', (kind) => {
  it('x declared, x served by the emulator in any of its ways of writing it', () => {
    fc.assert(
      fc.property(RESOURCE[kind], serviceForm, (x, form: ServiceForm) => {
        const [desired] = declareAll(kind, [{ id: ID[kind], ...x }])
        const live = served(storeOf(kind, [seedForm(kind, ID[kind], desired.fields, form)]), kind, ID[kind])
        const diff = diffResource(KINDS[kind], desired, KINDS[kind].project(live), noSecrets)
        expect(diff.fields).toEqual([])
      }),
      { numRuns: RUNS },
    )
  })

  it('with obfuscated secrets: planned only as "not yet tracked", and empty once the state records them', () => {
    fc.assert(
      fc.property(RESOURCE[kind], (x) => {
        const [desired] = declareAll(kind, [{ id: ID[kind], ...x }])
        const live = served(storeOf(kind, [seedForm(kind, ID[kind], desired.fields, NO_REWRITE)]), kind, ID[kind], true)
        const projected = KINDS[kind].project(live)
        const first = diffResource(KINDS[kind], desired, projected, noSecrets)
        expect(first.fields.filter((f) => f.reason !== 'not yet tracked')).toEqual([])
        const state = emptyState()
        const context = secretContext(state, TOKEN)
        for (const secret of first.hiddenSecrets) recordSecret(state, kind, desired.id, secret.path, { hmac: context.hmac(secret.declared), live: secret.live })
        expect(diffResource(KINDS[kind], desired, projected, context).fields).toEqual([])
      }),
      { numRuns: RUNS },
    )
  })
})

const NO_REWRITE: ServiceForm = { reverseLists: false, upperHost: false, secondsInTimes: false, objectIds: false, nullForEmpty: false, apiInSite: false, upperColors: false }

const validatePlan = createAjv().getSchema('plan.schema.json')!

describe('the same inputs give byte-identical JSON plans', () => {
  it.each(KIND_LIST)('%s: declared x, served y (whatever the order of the declarations and of the reads)', (kind) => {
    const many = fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: 999 }), RESOURCE[kind], RESOURCE[kind]), { minLength: 1, maxLength: 4, selector: ([n]) => n })
    fc.assert(
      fc.property(many, serviceForm, (items, form) => {
        const ids = items.map(([n]) => `${kind.slice(0, 2)}Gen${String(n).padStart(7, '0')}`)
        const planOnce = (reversed: boolean) => {
          // Declared and served afresh each time: nothing is shared between the two runs.
          const desired = declareAll(kind, items.map(([, x], i) => ({ id: ids[i], ...x })))
          const y = declareAll(kind, items.map(([, , live], i) => ({ id: ids[i], ...live })))
          const state = storeOf(kind, y.map((d) => seedForm(kind, d.id, d.fields, form)))
          const order = reversed ? [...ids].reverse() : ids
          const live = new Map(order.map((id) => [liveKey(kind, id), served(state, kind, id)]))
          return renderPlan(buildPlan(reversed ? [...desired].reverse() : desired, live, noSecrets).plan, 'json')
        }
        const first = planOnce(false)
        expect(planOnce(false)).toBe(first)
        expect(planOnce(true)).toBe(first)
        expect(validatePlan(JSON.parse(first)), JSON.stringify(validatePlan.errors)).toBe(true)
      }),
      { numRuns: 60 },
    )
  })
})

describe('a planned request, taken by the emulator, leaves nothing to plan', () => {
  const ctx = (state: State, obfuscated: boolean): ApiContext => ({ state, token: TOKEN, obfuscate: obfuscated, clock: new Clock() })

  it.each(KIND_LIST.flatMap((kind) => [[kind, false], [kind, true]] as const))('%s (obfuscated: %s): declared x, live y; send the request; plan again', (kind, obfuscated) => {
    fc.assert(
      fc.property(RESOURCE[kind], RESOURCE[kind], serviceForm, (x, y, form) => {
        const id = ID[kind]
        const [desired] = declareAll(kind, [{ id, ...x }])
        // Every asset on the service has a name (its host); the emulator's default is blank.
        const [live] = declareAll(kind, [{ id, ...(kind === 'asset' ? { name: 'asset.example.com' } : {}), ...y }])
        const state = storeOf(kind, [seedForm(kind, id, live.fields, form)])
        const secrets = emptyState()
        const context = secretContext(secrets, TOKEN)
        const before = compare(desired, served(state, kind, id, obfuscated), context)
        if (before.fields.length === 0) return
        const request = KINDS[kind].buildRequest({ desired, live: before.live, raw: before.raw, units: before.units })
        const answer = handleApi(ctx(state, obfuscated), {
          method: request.method,
          path: request.path,
          query: {},
          authorization: `JWT ${TOKEN}`,
          contentType: 'application/json',
          body: { kind: 'json', value: JSON.parse(JSON.stringify(request.body)) },
        })
        expect(answer.status, answer.body).toBe(200)
        // What the executor does after a success: record the secrets the service now hides.
        const response = JSON.parse(answer.body) as JsonObject
        for (const secret of compare(desired, response, context).hiddenSecrets) {
          recordSecret(secrets, kind, id, secret.path, { hmac: context.hmac(secret.declared), live: secret.live })
        }
        expect(compare(desired, served(state, kind, id, obfuscated), context).fields).toEqual([])
      }),
      { numRuns: RUNS },
    )
  })
})

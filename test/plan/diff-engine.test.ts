// The diff engine's named functions, each alone, over the one path notation (test/plan/diff.test.ts
// covers diffResource end to end).
import { describe, expect, it } from 'vitest'
import type { JsonObject } from '../../src/core/types.js'
import {
  compareField,
  compareHiddenSecret,
  compareItems,
  compareObject,
  compareReference,
  compareScalar,
  compareSet,
  compareWholeList,
  keyedListsDiffer,
  maskEntry,
  resourceDiff,
  type DiffContext,
  type Finding,
} from '../../src/plan/diff.js'
import { declaredSegments, displayPath, rulePath, yamlPlace, type FieldPath } from '../../src/plan/path.js'
import { color, nullableFalse, nullableText, url } from '../../src/resources/normalize.js'

const context = (templates: Record<string, string> = {}, rules: DiffContext['kind']['rules'] = {}, sensitiveFields: string[] = []): DiffContext => ({
  kind: { rules, sensitiveFields },
  templates: new Map(Object.entries(templates)),
  secretReason: (_path, declared) => (declared === 'tracked' ? undefined : 'not yet tracked'),
})
const changes = (findings: Finding[]) => findings.filter((f) => f.type === 'change').map((f) => ({ path: displayPath(f.path), before: f.before, after: f.after, unit: f.unit, sensitive: f.sensitive }))

describe('one path notation, turned into text at the edge', () => {
  const path: FieldPath = ['site', 'headers', { index: 2, key: 'Authorization' }, 'value']
  it('rule path, display path, YAML place and segments', () => {
    expect(rulePath(path)).toBe('site.headers.value')
    expect(displayPath(path)).toBe('site.headers[Authorization].value')
    expect(yamlPlace(path)).toBe('site.headers[2].value')
    expect(declaredSegments(path)).toEqual(['site', 'headers', 2, 'value'])
  })
  it('an item only the service holds has no YAML place; its position is the list', () => {
    const live: FieldPath = ['site', 'headers', { key: 'X-Old' }]
    expect(yamlPlace(live)).toBeUndefined()
    expect(declaredSegments(live)).toEqual(['site', 'headers'])
  })
  it('a key from a variable prints as (sensitive)', () => {
    expect(displayPath(['site', 'headers', { index: 0, key: 'X-secret', hiddenKey: true }])).toBe('site.headers[(sensitive)]')
  })
})

describe('compareScalar', () => {
  it('normalizes both sides; equal is no change', () => {
    expect(compareScalar(context(), { path: ['u'], declared: 'HTTPS://A.example', live: 'https://a.example/', unit: 'u' }, url)).toEqual([])
    expect(changes(compareScalar(context(), { path: ['u'], declared: 'b', live: 'a', unit: 'u' }))).toEqual([{ path: 'u', before: 'a', after: 'b', unit: 'u', sensitive: false }])
  })
  it('a declared null that differs is shown removed (as sent), not as the "" or false it compares equal to', () => {
    expect(compareScalar(context(), { path: ['d'], declared: null, live: '', unit: 'd' }, nullableText)).toEqual([])
    expect(changes(compareScalar(context(), { path: ['d'], declared: null, live: 'text', unit: 'd' }, nullableText))).toEqual([{ path: 'd', before: 'text', after: undefined, unit: 'd', sensitive: false }])
    expect(changes(compareScalar(context(), { path: ['f'], declared: null, live: true, unit: 'f' }, nullableFalse))).toEqual([{ path: 'f', before: true, after: undefined, unit: 'f', sensitive: false }])
  })
  it('sensitive by a flag on either side, by a variable, by the schemas', () => {
    const flagged = compareScalar(context(), { path: ['p'], declared: 'b', live: 'a', liveParent: { p_is_sensitive: true }, unit: 'p' })
    expect(changes(flagged)[0]!.sensitive).toBe(true)
    expect(changes(compareScalar(context({ p: '${P}' }), { path: ['p'], declared: 'b', live: 'a', unit: 'p' }))[0]!.sensitive).toBe(true)
    expect(changes(compareScalar(context({}, {}, ['s.otp']), { path: ['s', 'otp'], declared: 'b', live: 'a', unit: 's' }))[0]!.sensitive).toBe(true)
  })
  it('an obfuscated live value goes through the secrets state', () => {
    const place = { path: ['p'], declared: 'new', live: 'OBFUSCATED_x', declaredParent: { p_is_sensitive: true }, unit: 'p' }
    expect(compareScalar(context(), place).map((f) => f.type)).toEqual(['hidden', 'change'])
    expect(compareHiddenSecret(context(), place, 'tracked', 'OBFUSCATED_x').map((f) => f.type)).toEqual(['hidden'])
  })
  it('an obfuscated live value equal to the declared one is still a hidden secret, flag or not (sensitivity is asked only for a difference)', () => {
    const place = { path: ['p'], declared: 'OBFUSCATED_x', live: 'OBFUSCATED_x', unit: 'p' }
    expect(compareScalar(context(), place).map((f) => f.type)).toEqual(['hidden', 'change'])
  })
  it('a place with no unit of its own is its own unit when it holds a change', () => {
    expect(changes(compareScalar(context(), { path: ['s', 'name'], declared: 'b', live: 'a' }))).toEqual([{ path: 's.name', before: 'a', after: 'b', unit: 's.name', sensitive: false }])
  })
})

describe('compareObject and compareField', () => {
  it('members one by one; an object sent whole gives its members its unit', () => {
    const rules = { o: { type: 'object', sendWhole: true } } as const
    const found = compareField(context({}, rules), { path: ['o'], declared: { a: 1, b: 2 }, live: { a: 1, b: 3 } })
    expect(changes(found)).toEqual([{ path: 'o.b', before: 3, after: 2, unit: 'o', sensitive: false }])
    expect(changes(compareObject(context(), { path: ['x'], declared: { a: 1 }, live: null }))).toEqual([{ path: 'x.a', before: undefined, after: 1, unit: 'x.a', sensitive: false }])
  })
  it('the rules found from the path are the rules carried down from the resource (a place made by hand has none carried)', () => {
    const rules = { o: { type: 'object' }, 'o.w': { type: 'object', sendWhole: true }, 'o.w.t': { type: 'scalar', normalize: color }, 'o.s': { type: 'set' } } as const
    const declared = { w: { t: '#ABC', u: 1 }, s: [2, 1], x: 'y' }
    const live = { w: { t: '#abc', u: 2 }, s: [1, 3], x: 'z' }
    const byPath = changes(compareField(context({}, rules), { path: ['o'], declared, live }))
    expect(byPath).toEqual([
      { path: 'o.w.u', before: 2, after: 1, unit: 'o.w', sensitive: false },
      { path: 'o.s', before: [1, 3], after: [1, 2], unit: 'o.s', sensitive: false },
      { path: 'o.x', before: 'z', after: 'y', unit: 'o.x', sensitive: false },
    ])
    // Inside the object sent whole, a member made by hand takes the unit it is given.
    expect(changes(compareField(context({}, rules), { path: ['o', 'w', 't'], declared: '#ABD', live: '#abc', unit: 'o.w' }))).toEqual([
      { path: 'o.w.t', before: '#abc', after: '#ABD', unit: 'o.w', sensitive: false },
    ])
  })
})

describe('compareReference', () => {
  it('by id, shown as {id}', () => {
    expect(compareReference(context(), { path: ['r'], declared: { id: 'A' }, live: { id: 'A', name: 'x' }, unit: 'r' })).toEqual([])
    expect(changes(compareReference(context(), { path: ['r'], declared: null, live: { id: 'A' }, unit: 'r' }))).toEqual([{ path: 'r', before: { id: 'A' }, after: null, unit: 'r', sensitive: false }])
  })
  it('an id from a variable is sensitive', () => {
    expect(changes(compareReference(context({ 'r.id': '${A}' }), { path: ['r'], declared: { id: 'B' }, live: { id: 'A' }, unit: 'r' }))[0]!.sensitive).toBe(true)
  })
})

describe('compareSet', () => {
  it('order and copies do not count; a change shows both lists sorted, marked as a set', () => {
    expect(compareSet(context(), { path: ['w'], declared: ['b', 'a'], live: ['a', 'b', 'a'], unit: 'w' })).toEqual([])
    const [found] = compareSet(context(), { path: ['w'], declared: ['c', 'a'], live: ['b', 'a'], unit: 'w' })
    expect(found).toMatchObject({ before: ['a', 'b'], after: ['a', 'c'], set: true })
  })
  it('an item from a variable, and the same live item, print as (sensitive)', () => {
    const [found] = compareSet(context({ 'w[1]': 'x-${S}' }), { path: ['w'], declared: ['a', 'x-secret'], live: ['x-secret', 'b'], unit: 'w' })
    expect(found).toMatchObject({ before: ['b', '(sensitive)'], after: ['a', '(sensitive)'] })
  })
})

describe('compareWholeList and keyedListsDiffer', () => {
  const rules = { labels: { type: 'keyed', key: 'name', display: 'whole' }, 'labels.color': { type: 'scalar', normalize: color } } as const
  it('keys, copies and declared members (normalized) decide', () => {
    const differ = (declared: JsonObject[], live: JsonObject[]) => keyedListsDiffer(context({}, rules), ['labels'], 'name', declared, live)
    expect(differ([{ name: 'a', color: '#AAA' }], [{ name: 'a', color: '#aaa', id: 1 }])).toBe(false)
    expect(differ([{ name: 'a' }], [{ name: 'a' }, { name: 'a' }])).toBe(true)
    expect(differ([{ name: 'a' }], [{ name: 'b' }])).toBe(true)
  })
  it('each item as the members the YAML declares; a key from a variable as (sensitive) on both sides', () => {
    const [found] = compareWholeList(context({ 'labels[1].name': 'lbl-${X}' }, rules), { path: ['labels'], declared: [{ name: 'a' }, { name: 'lbl-s' }], live: [{ name: 'lbl-s' }, { name: 'b' }], unit: 'labels' }, 'name')
    expect(found).toMatchObject({ before: ['b', '(sensitive)'], after: ['a', '(sensitive)'], set: true })
  })
  // A review of the twelfth round's release: `{name, color: ""}` was shown added and `{name, color: null}` removed, for an item that did not change.
  it('an item equal to its live one through the normalizers is shown the same on both sides (no colour and `color: ""`, a colour\'s case)', () => {
    const [found] = compareWholeList(
      context({}, rules),
      { path: ['labels'], declared: [{ name: 'ops' }, { name: 'pay', color: '' }, { name: 'sec', color: '#0E8A16' }], live: [{ name: 'pay' }, { name: 'sec', color: '#0e8a16' }], unit: 'labels' },
      'name',
    )
    expect(found).toMatchObject({ before: [{ name: 'pay', color: '' }, { name: 'sec', color: '#0E8A16' }], after: ['ops', { name: 'pay', color: '' }, { name: 'sec', color: '#0E8A16' }], set: true })
  })
})

describe('compareItems and maskEntry', () => {
  const list = (declared: JsonObject[], live: JsonObject[]) => ({ path: ['site', 'headers'], declared, live, unit: 'site.headers' })
  it('added, removed, changed member by member, held twice', () => {
    const found = compareItems(context(), list([{ name: 'A', value: '2' }, { name: 'N', value: 'n' }, { name: 'D', value: 'd' }], [{ name: 'A', value: '1' }, { name: 'O', value: 'o' }, { name: 'D', value: 'd' }, { name: 'D', value: 'd' }]), 'name')
    expect(changes(found).map((c) => [c.path, c.before, c.after])).toEqual([
      ['site.headers[A].value', '1', '2'],
      ['site.headers[N]', undefined, { name: 'N', value: 'n' }],
      ['site.headers[D]', [{ name: 'D', value: 'd' }, { name: 'D', value: 'd' }], { name: 'D', value: 'd' }],
      ['site.headers[O]', { name: 'O', value: 'o' }, undefined],
    ])
  })
  it('a removed entry named as a credential keeps its live value out of sight', () => {
    for (const name of ['Authorization', 'proxy-authorization', 'Cookie', 'Set-Cookie', 'X-Api-Key', 'csrf_TOKEN', 'JSESSIONID', 'client-secret', 'Password']) {
      const [removed] = changes(compareItems(context(), list([], [{ name, value: 'live-value' }]), 'name'))
      expect(removed!.before).toEqual({ name, value: '(sensitive)' })
    }
    const [plain] = changes(compareItems(context(), list([], [{ name: 'X-Trace', value: 'shown' }]), 'name'))
    expect(plain!.before).toEqual({ name: 'X-Trace', value: 'shown' })
  })
  it('a changed credential entry value is sensitive', () => {
    const [changed] = changes(compareItems(context(), list([{ name: 'Authorization', value: 'b' }], [{ name: 'Authorization', value: 'a' }]), 'name'))
    expect(changed).toMatchObject({ path: 'site.headers[Authorization].value', sensitive: true })
  })
  it('a name from a variable: (sensitive) in the path and the item', () => {
    const [added] = changes(compareItems(context({ 'site.headers[0].name': 'X-${H}' }), list([{ name: 'X-hidden', value: 'v' }], []), 'name'))
    expect(added).toMatchObject({ path: 'site.headers[(sensitive)]', after: { name: '(sensitive)', value: 'v' } })
  })
  it('maskEntry: a live copy takes the declared item’s variables and flags', () => {
    const masked = maskEntry(context({ 'l[0].value': '${V}' }), ['l'], { name: 'A', value: 'secret' }, { item: { name: 'A', value: 'secret' }, index: 0 })
    expect(masked).toEqual({ name: 'A', value: '(sensitive)' })
    expect(maskEntry(context(), ['l'], { name: 'A', value: 'v', value_is_sensitive: true })).toMatchObject({ value: '(sensitive)' })
  })
})

describe('resourceDiff: findings in the plan’s terms', () => {
  it('display paths, masked values, units sorted, hidden secrets by display and rule path', () => {
    const locate = (segments: Array<string | number>) => ({ file: 'f.yaml', line: segments.length, column: 1 })
    const diff = resourceDiff(
      [
        { type: 'change', path: ['b'], before: 1, after: 2, unit: 'b', sensitive: false },
        { type: 'change', path: ['a', { index: 0, key: 'K' }, 'v'], before: 'x', after: 'y', unit: 'a', sensitive: true, reason: 'changed in YAML' },
        { type: 'hidden', path: ['a', { index: 0, key: 'K' }, 'v'], declared: 'd', live: 'OBFUSCATED_l' },
      ],
      { locate },
    )
    expect(diff.units).toEqual(['a', 'b'])
    expect(diff.fields[1]).toEqual({ path: 'a[K].v', before: '(sensitive)', after: '(sensitive)', sensitive: true, reason: 'changed in YAML', source: locate(['a', 0, 'v']) })
    expect(diff.hiddenSecrets).toEqual([{ path: 'a[K].v', stateKey: 'a[K].v', otherKeys: [], rulePath: 'a.v', declared: 'd', live: 'OBFUSCATED_l' }])
  })
})

import { describe, expect, it } from 'vitest'
import { childOf, follow, parseRef, placeAt, type JsonSchema } from '../../src/schema/refs.js'

const files: Record<string, JsonSchema> = {
  'a.json': { properties: { 'x/y': { $ref: 'b.json#/definitions/thing' }, loop: { $ref: '#/definitions/one' } }, definitions: { one: { $ref: '#/definitions/two' }, two: { $ref: '#/definitions/one' } } },
  'b.json': { definitions: { thing: { $ref: '#/definitions/real' }, real: { type: 'object', items: { type: 'string' } } } },
}
const documents = (file: string) => files[file]

describe('the $ref walker', () => {
  it('follows a chain across files; a ref without a file stays in the file it is written in', () => {
    const place = childOf(documents, placeAt(documents, 'a.json'), 'properties', 'x/y')!
    expect(place).toMatchObject({ file: 'b.json', pointer: '/definitions/real', schema: { type: 'object' } })
    expect(childOf(documents, place, 'items')).toMatchObject({ file: 'b.json', pointer: '/definitions/real/items' })
  })

  it('answers undefined for a member that is not there (own members only)', () => {
    expect(childOf(documents, placeAt(documents, 'a.json'), 'properties', 'constructor')).toBeUndefined()
  })

  it('stops on a loop with an error instead of running for ever', () => {
    expect(() => follow(documents, { file: 'a.json', pointer: '', schema: { $ref: '#/definitions/one' } })).toThrow(/does not end/)
  })

  it('parses refs', () => {
    expect(parseRef('common.schema.json#/definitions/label')).toEqual({ file: 'common.schema.json', pointer: '/definitions/label' })
    expect(parseRef('#/definitions/id')).toEqual({ file: '', pointer: '/definitions/id' })
    expect(parseRef('plan.schema.json')).toEqual({ file: 'plan.schema.json', pointer: '' })
  })
})

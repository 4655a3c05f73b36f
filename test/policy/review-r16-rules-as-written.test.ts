// README, "Configuration files" says `${NAME}` is replaced by the environment variable; in a rule
// it is not (rules are schemas, not values to send), which the README's "Policies" now says.
import { afterAll, describe, expect, it } from 'vitest'
import { load, removeTestdirs } from '../config/helpers.js'

afterAll(removeTestdirs)

describe('a rule holding ${NAME}', () => {
  it('is read as written, the variable set or not', async () => {
    const text = `policies:\n  - name: lisbon\n    kind: target\n    require: {properties: {scanning_agent: {properties: {id: {const: "\${LISBON_AGENT}"}}}}}\n`
    for (const env of [{}, { LISBON_AGENT: '3kLx8Qy7Pb2m' }]) {
      const loaded = await load({ 'rules.yaml': text }, env)
      expect(loaded.diagnostics).toEqual([])
      const [rule] = loaded.policies
      expect(rule!.require({ id: 'T1', scanning_agent: { id: '${LISBON_AGENT}' } })).toBe(true)
      expect(rule!.require({ id: 'T1', scanning_agent: { id: '3kLx8Qy7Pb2m' } })).toBe(false)
    }
  })
})

// README, "Policies": a label's colour, to the rules, is the one the YAML gives it on that
// resource, else the one it has there live; a label new to the resource written by name has none
// (the plan does not read the account's labels), and a colour another resource declares is not
// seen. The README said only "as the resource will be after the apply", which the service's
// one-colour-per-name labels make untrue here: a rule about colours failed a plan whose apply
// would have satisfied it. This pins what the README now says.
import { describe, expect, it } from 'vitest'
import { afterApply } from '../../src/plan/after-apply.js'
import { KINDS } from '../../src/resources/index.js'

describe('the colour of a label, to the rules', () => {
  const live = KINDS.target.project({ id: 'T1', site: { name: 'S', url: 'https://s.example.com/' }, labels: [{ name: 'staging', color: '#fbca04' }] })

  it("the YAML's on that resource, else the live one there; none for a label new to it written by name", () => {
    const shape = afterApply(KINDS.target, 'T1', { labels: [{ name: 'staging' }, { name: 'production' }, { name: 'pci', color: '#d93f0b' }] }, live)
    expect(shape.labels).toEqual([{ name: 'staging', color: '#fbca04' }, { name: 'production' }, { name: 'pci', color: '#d93f0b' }])
  })
})

// Sets (whitelist, labels, teams…) as the items added and removed, and a resource whose name is a
// secret shown by its id, in every format (JSON keeps the contract's whole lists).
import { describe, expect, it } from 'vitest'
import { SENSITIVE } from '../../src/plan/model.js'
import { planDocument, renderPlan } from '../../src/render/index.js'
import { setItems } from '../../src/render/rows.js'
import { change, field, plan } from './builders.js'

const sets = () =>
  plan([
    change('target', '2DZkoZH8WMEM', SENSITIVE, [
      field('site.whitelist', ['https://x/a/*', 'https://x/old/*'], ['https://x/a/*', 'https://x/admin/*', SENSITIVE], { set: true }),
      field('labels', ['production', { name: 'pci', color: '#aaaaaa' }], ['production', { name: 'pci', color: '#d93f0b' }], { set: true }),
    ]),
  ])

describe('set items', () => {
  it('setItems: what after adds and what it drops, copies counted', () => {
    expect(setItems(['a', 'a', 'b'], ['a', 'c'])).toEqual({ added: ['"c"'], removed: ['"a"', '"b"'] })
    expect(setItems(null, [SENSITIVE])).toEqual({ added: [SENSITIVE], removed: [] })
  })

  it('text: the path, then + and - lines; the resource by its id', () => {
    expect(renderPlan(sets(), 'text')).toBe(
      [
        '~ target 2DZkoZH8WMEM',
        '    site.whitelist:',
        '        + "https://x/admin/*"',
        '        + (sensitive)',
        '        - "https://x/old/*"',
        '    labels:',
        '        + {name: "pci", color: "#d93f0b"}',
        '        - {name: "pci", color: "#aaaaaa"}',
        '',
        'Plan: 1 to change, 41 unchanged.',
        '',
      ].join('\n'),
    )
  })

  it('markdown: removed items in Before, added in After; the name cell says (sensitive)', () => {
    const text = renderPlan(sets(), 'markdown')
    expect(text).toContain('| <code>site.whitelist</code> | <code>- "https://x/old/\\*"</code> | <code>+ "https://x/admin/\\*"<br>+ (sensitive)</code> |')
    expect(text).toContain('| ~ | target | <code>2DZkoZH8WMEM</code> | (sensitive) |')
    expect(text).toContain('<summary>~ target 2DZkoZH8WMEM (2 fields)</summary>')
  })

  it('github: one annotation per set, its items on lines of their own', () => {
    expect(renderPlan(sets(), 'github')).toContain('::warning title=scansync plan%3A target 2DZkoZH8WMEM::site.whitelist:%0A+ "https://x/admin/*"%0A+ (sensitive)%0A- "https://x/old/*"\n')
  })

  it('json: the contract’s whole lists, the name as (sensitive)', () => {
    const [entry] = planDocument(sets()).changes
    expect(entry!.name).toBe(SENSITIVE)
    expect(entry!.fields[0]).toEqual({ path: 'site.whitelist', before: ['https://x/a/*', 'https://x/old/*'], after: ['https://x/a/*', 'https://x/admin/*', SENSITIVE], sensitive: false })
  })
})

import { sortDiagnostics, type Diagnostic } from '../core/diagnostics.js'
import type { DesiredResource } from '../core/types.js'
import { KINDS } from '../resources/index.js'
import { getPath, isObject } from '../core/json.js'

/**
 * Checks of declared resources that need the kinds' comparison rules (the schema cannot say
 * them). Pure: no I/O.
 *
 * A list compared as a set keyed by a member (headers by name, teams by id, labels by name)
 * may hold each key once: with a key declared twice the service keeps both, and no plan could
 * ever come out empty.
 */
function unoptimisedCheckDeclared(resources: readonly DesiredResource[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = []
  // Each kind's keyed lists, worked out once (not once per resource: this runs before the first request).
  const keyedOf = new Map<string, Array<{ rulePath: string; rule: { key: string }; segments: string[] }>>()
  // Indexed loops: in code V8 does not optimise, each step of `for…of` allocates an iterator's result.
  for (let r = 0; r < resources.length; r++) {
    const resource = resources[r]
    let keyed = keyedOf.get(resource.kind)
    if (!keyed) {
      keyed = Object.entries(KINDS[resource.kind].rules).flatMap(([rulePath, rule]) => (rule.type === 'keyed' ? [{ rulePath, rule, segments: rulePath.split('.') }] : []))
      keyedOf.set(resource.kind, keyed)
    }
    for (let k = 0; k < keyed.length; k++) {
      const { rulePath, rule, segments } = keyed[k]
      const list = getPath(resource.fields, segments)
      if (!Array.isArray(list) || list.length < 2) continue
      const first = new Map<string, number>()
      list.forEach((item, index) => {
        // An item without the key (a team named instead of identified) is checked once resolved.
        if (!isObject(item) || item[rule.key] === undefined) return
        const key = String(item[rule.key])
        const earlier = first.get(key)
        if (earlier === undefined) return void first.set(key, index)
        const at = resource.locate([...segments, index])
        const before = resource.locate([...segments, earlier])
        diagnostics.push({
          file: at.file,
          line: at.line,
          column: at.column,
          path: `${rulePath}[${index}]`,
          message: `${resource.kind} ${resource.id}: ${rulePath}[${index}]: ${rule.key} ${JSON.stringify(key)} is declared twice (first at line ${before.line}); each ${rule.key} may appear once`,
        })
      })
    }
  }
  return sortDiagnostics(diagnostics)
}

// `unoptimised…`: run once or a few times per resource; V8's optimising compiler leaves them alone (bin/v8-flags.js).
export { unoptimisedCheckDeclared as checkDeclared }

import { sortDiagnostics, type Diagnostic } from '../core/diagnostics.js'
import { SENSITIVE, type DesiredResource } from '../core/types.js'
import { secretValues } from '../secrets/redact.js'
import { KINDS } from '../resources/index.js'
import { declaredLabel } from '../resources/label.js'
import type { NameReference } from '../resources/identity.js'
import { getPath, isObject } from '../core/json.js'
import { ACCOUNT_LABELS, colourKey, type AccountColours } from '../resources/account-colours.js'

/**
 * Checks of declared resources that need the kinds' comparison rules (the schema cannot say
 * them). Pure: no I/O.
 *
 * A list compared as a set keyed by a member (headers by name, teams by id, labels by name)
 * may hold each key once: with a key declared twice the service keeps both, and no plan could
 * ever come out empty.
 */
function unoptimisedCheckDeclared(resources: readonly DesiredResource[], named?: ReadonlyMap<DesiredResource, readonly NameReference[]>): Diagnostic[] {
  const diagnostics: Diagnostic[] = []
  const quoted = quoter(resources)
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
        // A key that a reference by name turned into (`teams: [{name: Platform}, {name: Platform}]`): said with the name written.
        const byName = named?.get(resource)?.find((ref) => ref.place === `${rulePath}[${index}].name` || ref.place === `${rulePath}[${earlier}].name`)
        const written = byName ? ` (the ${byName.kind} named ${byName.fromVariable ? SENSITIVE : quoted(byName.name)})` : ''
        diagnostics.push({
          file: at.file,
          line: at.line,
          column: at.column,
          path: `${rulePath}[${index}]`,
          subject: declaredLabel(resource, quoted.holds),
          message: `${declaredLabel(resource, quoted.holds)}: ${rulePath}[${index}]: ${rule.key} ${quoted(key)}${written} is declared twice (first at line ${before.line}); each ${rule.key} may appear once`,
        })
      })
    }
  }
  for (const problem of unoptimisedColourConflicts(resources, quoted)) diagnostics.push(problem)
  return sortDiagnostics(diagnostics)
}

/**
 * A declared text as an error quotes it: (sensitive) when it holds a secret of the configuration
 * (any case), a value from a variable among them. The output step would leave one too short or too
 * common to replace (a label named `${TEAM}`), and a literal equal to it would say what it is.
 * The secrets are worked out on the first error only: this runs before the first request.
 */
function quoter(resources: readonly DesiredResource[]): ((text: string) => string) & { holds: (text: string) => boolean } {
  let secrets: string[] | undefined
  const holds = (text: string) => {
    secrets ??= secretValues([...resources]).map((secret) => secret.toLowerCase())
    const lower = text.toLowerCase()
    return secrets.some((secret) => lower.includes(secret))
  }
  return Object.assign((text: string) => (holds(text) ? SENSITIVE : JSON.stringify(text)), { holds })
}

/**
 * One label name declared with two colours (in one resource or two): each apply would set the
 * colour the other undoes, and no plan could come out empty. Said at the later place, naming the
 * first.
 */
function unoptimisedColourConflicts(resources: readonly DesiredResource[], quoted: ReturnType<typeof quoter>): Diagnostic[] {
  const diagnostics: Diagnostic[] = []
  const first = new Map<string, { color: string; resource: DesiredResource; segments: Array<string | number> }>()
  for (let r = 0; r < resources.length; r++) {
    const resource = resources[r]
    for (let l = 0; l < ACCOUNT_LABELS.length; l++) {
      const { kind, path, family } = ACCOUNT_LABELS[l]
      if (resource.kind !== kind) continue
      const list = resource.fields[path]
      if (!Array.isArray(list)) continue
      for (let i = 0; i < list.length; i++) {
        const item = list[i]
        if (!isObject(item) || typeof item.name !== 'string' || typeof item.color !== 'string') continue
        const key = colourKey(family, item.name)
        const earlier = first.get(key)
        if (!earlier) {
          first.set(key, { color: item.color, resource, segments: [path, i] })
          continue
        }
        if (earlier.color.toLowerCase() === item.color.toLowerCase()) continue
        const at = resource.locate([path, i])
        const before = earlier.resource.locate(earlier.segments)
        diagnostics.push({
          file: at.file,
          line: at.line,
          column: at.column,
          path: `${path}[${i}]`,
          subject: declaredLabel(resource, quoted.holds),
          message:
            `${declaredLabel(resource, quoted.holds)}: ${path}[${i}]: the ${family} ${quoted(item.name)} is declared with the colour ${quoted(item.color)} here and ${quoted(earlier.color)} at ${before.file}:${before.line}; ` +
            `the service keeps one colour per ${family} name, shown on every resource with it, so declare one colour (or none)`,
        })
      }
    }
  }
  return diagnostics
}

/**
 * A label (or owner) the YAML declares without a colour, where another declaration of its name
 * gives one, takes that colour: the service keeps one colour per name, so a request that
 * re-sends the label with the colour read before the apply would undo, later in the same apply,
 * the colour another resource's request just set (and the next plan would not be empty). The
 * configuration must be free of conflicting colours (unoptimisedColourConflicts).
 */
export function shareAccountColours(resources: readonly DesiredResource[]): void {
  // Runs once, before the first request, over every declared label: indexed loops and a map per
  // family (no key built per label), as this code runs cold.
  const colours: AccountColours = new Map(ACCOUNT_LABELS.map(({ family }) => [family, new Map<string, string>()]))
  let any = false
  for (let r = 0; r < resources.length; r++) {
    const resource = resources[r]!
    for (let l = 0; l < ACCOUNT_LABELS.length; l++) {
      const { kind, path, family } = ACCOUNT_LABELS[l]!
      const list = resource.kind === kind ? resource.fields[path] : undefined
      if (!Array.isArray(list)) continue
      const named = colours.get(family) as Map<string, string>
      for (let i = 0; i < list.length; i++) {
        const item: unknown = list[i]
        if (item === null || typeof item !== 'object') continue
        const { name, color } = item as { name?: unknown; color?: unknown }
        if (typeof name === 'string' && typeof color === 'string' && !named.has(name)) {
          named.set(name, color)
          any = true
        }
      }
    }
  }
  if (!any) return
  for (let r = 0; r < resources.length; r++) {
    const resource = resources[r]!
    for (let l = 0; l < ACCOUNT_LABELS.length; l++) {
      const { kind, path, family } = ACCOUNT_LABELS[l]!
      if (resource.kind !== kind) continue
      const list = resource.fields[path]
      if (!Array.isArray(list)) continue
      const named = colours.get(family)!
      let filled: unknown[] | undefined
      for (let i = 0; i < list.length; i++) {
        const item: unknown = list[i]
        if (!isObject(item) || typeof item.name !== 'string' || Object.hasOwn(item, 'color')) continue
        const color = named.get(item.name)
        if (color !== undefined) (filled ??= [...list])[i] = { ...item, color }
      }
      if (filled) resource.fields[path] = filled
    }
  }
}

// `unoptimised…`: run once or a few times per resource; V8's optimising compiler leaves them alone (bin/v8-flags.js).
export { unoptimisedCheckDeclared as checkDeclared }

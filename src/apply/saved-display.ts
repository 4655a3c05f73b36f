import type { Ready } from '../plan/staleness.js'

/*
 * apply --plan shows the plan as plan printed it. The saved plan keeps the plan's JSON document,
 * which cannot tell a value the service does not have from a null (both are null there): the
 * values are taken again here from the read made just before sending (they are the plan's: its
 * fingerprint matched). The names shown for ids (`dc-porto-agent`) are kept beside the document
 * (the saved plan's `names`).
 */

/**
 * Each saved field the fresh comparison finds as well takes that comparison's values (undefined
 * where the service has none, null where it holds null); its reason stays the plan's. Changes the
 * decoded plan and the ready resources share, in place, so that the plan shown and the report agree.
 */
export function valuesAsPlanned(ready: readonly Ready[]): void {
  for (const { planned, comparison } of ready) {
    const fresh = new Map(comparison.fields.map((field) => [field.path, field]))
    // Fields under one masked path (two list keys from variables: the rotated one removed, the new
    // one added) are told apart by none: each keeps the plan's values, not the last one's.
    const repeated = (fields: ReadonlyArray<{ path: string }>) => fields.map((field) => field.path).filter((path, i, all) => all.indexOf(path) !== i)
    const twice = new Set([...repeated(comparison.fields), ...repeated(planned.change.fields)])
    planned.change.fields = planned.change.fields.map((field) => {
      const again = twice.has(field.path) ? undefined : fresh.get(field.path)
      if (!again || field.sensitive || again.sensitive) return field
      return { ...field, before: again.before, after: again.after }
    })
  }
}

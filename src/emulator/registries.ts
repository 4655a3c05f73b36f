import type { OutputLabel, TargetResponse, UserRef } from '../schema/generated.js'
import { isObject, stableId } from './values.js'

/** The colour the service gives a new label created without one. */
export const DEFAULT_LABEL_COLOR = '#cccccc'

export type ScanProfile = Extract<NonNullable<TargetResponse['scan_profile']>, object>

/** Scan profiles every account has. Any other id is a custom profile. */
export const BUILTIN_SCAN_PROFILES: readonly ScanProfile[] = [
  { id: 'lightning', name: 'Lightning', description: 'A quick scan of the most common vulnerabilities.', builtin: true },
  { id: 'normal', name: 'Normal', description: 'The default scan: crawls the whole target and tests every vulnerability class.', builtin: true },
  { id: 'full', name: 'Full', description: 'A thorough scan with every test, including the slow ones.', builtin: true },
  { id: 'api', name: 'API', description: 'A scan of an API from its schema.', builtin: true },
]

/**
 * Account-level labels (or owner labels): a label is created the first time a name is used and
 * keeps its colour until a request gives another one.
 */
export class LabelRegistry {
  private readonly byName = new Map<string, Required<OutputLabel>>()

  constructor(private readonly namespace: string) {}

  /** Registers a label given as a name, {name, color} or an output label; returns its name. */
  upsert(input: unknown, user: UserRef, now: string): string {
    const given = typeof input === 'string' ? { name: input } : isObject(input) ? input : {}
    const name = given.name
    if (typeof name !== 'string' || name === '') throw new Error(`a ${this.namespace} needs a name: ${JSON.stringify(input)}`)
    const color = typeof given.color === 'string' ? given.color : undefined
    const existing = this.byName.get(name)
    if (!existing) {
      this.byName.set(name, {
        id: typeof given.id === 'string' ? given.id : stableId(this.namespace, name),
        name,
        color: color ?? DEFAULT_LABEL_COLOR,
        changed_by: isObject(given.changed_by) ? (given.changed_by as UserRef) : user,
        changed: typeof given.changed === 'string' ? given.changed : now,
      })
    } else if (color !== undefined && color !== existing.color) {
      existing.color = color
      existing.changed = now
      existing.changed_by = user
    }
    return name
  }

  output(name: string): OutputLabel {
    const label = this.byName.get(name)!
    return { ...label, changed_by: label.changed_by && { ...label.changed_by } }
  }
}

export interface Team {
  id: string
  name: string
}

export class TeamRegistry {
  private readonly byId = new Map<string, Team>()

  has(id: string): boolean {
    return this.byId.has(id)
  }

  add(team: Team): void {
    this.byId.set(team.id, { id: team.id, name: team.name })
  }

  /** A team as seed data refers to it: known, or created from the reference. */
  ensure(ref: unknown): string {
    const team = typeof ref === 'string' ? { id: ref } : isObject(ref) ? ref : {}
    if (typeof team.id !== 'string' || team.id === '') throw new Error(`a team needs an id: ${JSON.stringify(ref)}`)
    if (!this.byId.has(team.id)) this.add({ id: team.id, name: typeof team.name === 'string' ? team.name : `Team ${team.id}` })
    return team.id
  }

  output(id: string): Team {
    return { ...this.byId.get(id)! }
  }

  /** Ids in list order (by id), as the other lists are ordered. */
  ids(): string[] {
    return [...this.byId.keys()].sort()
  }
}

export class ScanProfileRegistry {
  private readonly byId = new Map<string, ScanProfile>(BUILTIN_SCAN_PROFILES.map((p) => [p.id, p]))

  /** Registers a profile given as an id or as an object; returns its id. Unknown ids become custom profiles. */
  ensure(input: unknown): string {
    const given = typeof input === 'string' ? { id: input } : isObject(input) ? input : {}
    const id = given.id
    if (typeof id !== 'string' || id === '') throw new Error(`a scan profile needs an id: ${JSON.stringify(input)}`)
    if (!this.byId.has(id)) {
      this.byId.set(id, {
        id,
        name: typeof given.name === 'string' ? given.name : id,
        description: typeof given.description === 'string' ? given.description : null,
        builtin: false,
      })
    }
    return id
  }

  output(id: string): ScanProfile {
    return { ...this.byId.get(id)! }
  }
}

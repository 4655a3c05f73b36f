import { dirname, relative, resolve } from 'node:path'
import { statSync } from 'node:fs'
import { formatDiagnostic, groupRepeated, sortDiagnostics, type Diagnostic } from '../../core/diagnostics.js'
import { loadConfig } from '../../config/load.js'
import { liveSecrets, secretValues } from '../../secrets/redact.js'
import { isObject } from '../../core/json.js'
import type { DesiredResource, JsonObject, KindName } from '../../core/types.js'
import { ScansyncError, UsageError } from '../../core/errors.js'
import { Io, line, type RedactedIo } from '../../core/io.js'
import { startProgress } from '../progress.js'
import { boundHeap } from '../memory.js'
import { annotationPaths, workflowCommand } from '../../render/github.js'
import { compare, liveKey, type Comparison, type PlanResult } from '../../plan/build-plan.js'
import { assembleWithCreations, createdLive } from '../../plan/create.js'
import { withMissing } from '../../plan/missing.js'
import { referencesNotHeld, referencesSent } from '../../plan/references-sent.js'
import { nameShown, namesThrough, referenceNames, showNames } from '../../plan/names.js'
import { identify, undeclared, type Identified } from './identify.js'
import { configurationProblems, defaultPathHint } from './config-diagnostics.js'
import { ReadBudget, readDeclared, type ListPrefetch } from '../../live/read.js'
import { startEarlyReads, type ReadsAhead } from './early-reads.js'
import { KIND_NAMES, KINDS } from '../../resources/index.js'
import { holdsReferenceByName, type ReferenceNames } from '../../resources/references.js'
import { UNMANAGED_KINDS } from '../../resources/identity.js'
import { collectLiveSecrets, learnLiveSecrets, learnSecrets } from '../../secrets/known.js'
import { openLedger, readSecretsState, resourceKey, stateKeys, type SecretContext, type SecretsLedger } from '../../secrets/state.js'
import type { SecretsState } from '../../schema/generated.js'
import { listIdsHint, ReadTally } from './read-tally.js'
import { stateLeftElsewhere } from '../../secrets/state-elsewhere.js'
import { ConnectionOptions, openSession, readToken, Session } from './session.js'
import type { PolicyRule } from '../../config/policies.js'
import { PolicyChecker, type Violation } from '../../plan/policies.js'
import { shareAccountColours } from '../../plan/declared-checks.js'

export interface SelectionOptions {
  paths: string[]
  kinds?: KindName[]
  ids?: string[]
  /** With `github`, configuration errors are printed as workflow commands (annotations on the YAML lines). */
  format?: string
  /** The command, for advice that repeats it (default plan). */
  command?: string
  /** Also read every live target and agent (drift --unmanaged lists those no file declares). */
  unmanaged?: boolean
  /** drift: a resource declared by id that the service answers 404 for is in the plan's `missing` (deleted by hand), not an error. */
  missingIsDrift?: boolean
}

export interface PlanInputs extends SelectionOptions, ConnectionOptions {
  /** The secrets state file; default .scansync/state.json in the configuration directory. */
  state?: string
  /** List reads the command started before loading this module (else they start here). */
  readsAhead?: Pick<ReadsAhead, 'take'>
}

export interface Loaded {
  resources: DesiredResource[]
  /** Every declared resource, whatever --kind and --id select (what the configuration will have made). */
  configuration: DesiredResource[]
  /** The configuration's policy rules, compiled. */
  policies: PolicyRule[]
}

/** Loads and checks the configuration, then keeps the selected resources. Undefined: invalid (printed). */
export async function loadSelected(options: SelectionOptions, io: RedactedIo): Promise<Loaded | undefined> {
  const loaded = await loadConfig(options.paths, { env: io.env, cwd: io.cwd, secretsOf: (resources) => secretValues([...resources]) })
  const { config } = loaded
  // Before anything is printed: a problem's message may quote a value that came from a variable.
  learnSecrets(io.redaction, config.resources)
  const diagnostics = configurationProblems(loaded)
  if (diagnostics.length > 0) {
    printProblems(diagnostics, options, io, defaultPathHint(options.paths, diagnostics, config.files, options.command ?? 'plan'))
    return undefined
  }
  // From the whole configuration, before --kind and --id select: a colour is the account's.
  shareAccountColours(config.resources)
  let resources = config.resources
  if (options.kinds && options.kinds.length > 0) {
    resources = resources.filter((r) => options.kinds!.includes(r.kind))
    // A nightly `drift --kind agent` over files that declare no agent would pass, checking nothing, in silence
    // (with --unmanaged too for a kind it does not list: assets).
    const listed = (kind: KindName) => options.unmanaged === true && (UNMANAGED_KINDS as readonly KindName[]).includes(kind)
    const undeclared = options.kinds.filter((kind) => !listed(kind) && !resources.some((r) => r.kind === kind))
    if (undeclared.length > 0) line(io.stderr, `Note: no ${undeclared.join(' or ')} is declared in these files: --kind ${undeclared.join(',')} selects nothing.`)
  }
  // A resource known by its natural key gets its id from the live lists: --id then selects after
  // that. So it does with --unmanaged, which needs every declared resource to tell what is not.
  // One declared by id is left out now if unselected, as --kind leaves it out: its names are not resolved.
  if (!options.unmanaged && !resources.some((r) => r.id === '')) resources = selectIds(resources, options)
  else if (!options.unmanaged && options.ids && options.ids.length > 0) resources = resources.filter((r) => r.id === '' || options.ids!.includes(r.id))
  return { resources, configuration: config.resources, policies: loaded.policies }
}

/** Configuration problems as FILE:LINE:COLUMN lines (annotations with github), then the count; nothing is sent. */
export function printProblems(found: readonly Diagnostic[], options: SelectionOptions, io: RedactedIo, hint?: string): void {
  const diagnostics = groupRepeated(found)
  for (const diagnostic of diagnostics) {
    // Redacted before the annotation encodes it: `%` written `%25` would hide a secret from the output step.
    line(io.stderr, options.format === 'github' ? workflowCommand('error', diagnostic, 'scansync: invalid configuration', io.redaction.redact(diagnostic.message), annotationPaths(io.env.GITHUB_WORKSPACE, io.cwd)) : formatDiagnostic(diagnostic))
  }
  if (hint) line(io.stderr, hint)
  line(io.stderr, `${diagnostics.length} ${diagnostics.length === 1 ? 'error' : 'errors'} in the configuration; nothing was sent.`)
}

/**
 * `--id`: only the resources with these ids (an id no declared resource has is a usage error).
 * `listed`: with `drift --unmanaged`, whether a live resource no file declares has the id (then it
 * selects that one in the list of those).
 */
function selectIds(resources: DesiredResource[], options: SelectionOptions, listed?: (id: string) => boolean): DesiredResource[] {
  if (!options.ids || options.ids.length === 0) return resources
  const declared = new Set(resources.map((r) => r.id))
  const unknown = options.ids.filter((id) => !declared.has(id) && listed?.(id) !== true)
  const among = options.kinds?.length ? ` among the kinds ${options.kinds.join(', ')}` : ''
  // --unmanaged lists live targets and agents only: a live asset's id is not "not live".
  const lists = UNMANAGED_KINDS.filter((kind) => !options.kinds?.length || options.kinds.includes(kind))
  const live = listed && lists.length > 0 ? `, nor is it a live ${lists.join(' or ')} no file declares` : ''
  if (unknown.length > 0) throw new UsageError(`--id ${unknown.join(', ')}: no such resource is declared${among}${live}`)
  return resources.filter((r) => options.ids!.includes(r.id))
}

/** Where the secrets state lives: beside the configuration, so scheduled runs find it. */
export function statePathFor(options: { paths: string[]; state?: string }, io: Io): string {
  if (options.state) return resolve(io.cwd, options.state)
  const first = resolve(io.cwd, options.paths[0] ?? '.')
  let directory = first
  try {
    if (!statSync(first).isDirectory()) directory = dirname(first)
  } catch {
    directory = dirname(first)
  }
  return resolve(directory, '.scansync', 'state.json')
}

/** Says where the secrets state was left when the one read is not there and another records these resources (stateLeftElsewhere). */
function noteStateLeftElsewhere(statePath: string, paths: readonly string[], resources: readonly DesiredResource[], io: Io): void {
  const declared = new Set(resources.filter((r) => r.id !== '').map((r) => resourceKey(r.kind, r.id)))
  const found = stateLeftElsewhere(statePath, paths.slice(1).map((path) => statePathFor({ paths: [path] }, io)), declared)
  if (found === undefined) return
  const shown = (path: string) => relative(io.cwd, path) || '.'
  line(
    io.stderr,
    `Note: there is no secrets state at ${shown(statePath)} (the state is read from .scansync/ beside the first PATH), but ${shown(found)} records secrets of resources these files declare: ` +
      `move it to ${shown(statePath)}, or pass --state ${shown(found)}; until then those secrets are planned as "not yet tracked".`,
  )
}

/**
 * Reads the live state of the resources, every kind at once, comparing each as it arrives: only
 * the comparisons that found a difference are kept, so memory grows with the changes, not with
 * the answers.
 */
export async function compareWithLive(
  resources: DesiredResource[],
  session: Session,
  secrets: SecretContext,
  io: Io,
  policies?: PolicyChecker,
  identified: {
    known?: ReadonlyMap<string, JsonObject>
    creations?: readonly DesiredResource[]
    /** The live names of the agents and teams the run read (with those of `agentsRead`), for references answered without id. */
    referenceNames?: (agentsRead: readonly JsonObject[], agents?: boolean) => Promise<ReferenceNames>
  } = {},
  reads: { prefetch?: ListPrefetch; budget?: ReadBudget } = {},
): Promise<PlanResult & { gone: DesiredResource[]; agentsRead: JsonObject[] }> {
  const known = identified.known ?? new Map<string, JsonObject>()
  const creations = identified.creations ?? []
  const progress = await startProgress(io.stderr, resources.length, 'Reading', { env: io.env })
  const changed: Comparison[] = []
  const releaseHeap = boundHeap()
  const declared = new Map(resources.map((r) => [liveKey(r.kind, r.id), r]))
  const tally = new ReadTally(session.client, session.apiUrl)
  const liveSecretsRead: string[] = []
  /** The declared resources the service answers 404 for, and the first of those answers (reads.onMissing). */
  const gone: DesiredResource[] = []
  let notFound: unknown
  /**
   * The id and name of each declared agent read, and of each agent a declared target holds (its
   * live `scanning_agent` names it), for the plan to name a target's scanning_agent with: the
   * agent's own answer wins.
   */
  const agentsRead = new Map<string, JsonObject>()
  /** Resources answered with a reference without id (references.ts): compared once every read has named the agents and teams. */
  const byName: Array<[DesiredResource, string, JsonObject]> = []
  // `unoptimised…`: runs once per resource; V8's optimising compiler leaves it alone (bin/v8-flags.js).
  const unoptimisedOnResource = (resource: DesiredResource, id: string, body: JsonObject) => {
    if (identified.referenceNames && resource.referenceNames === undefined && holdsReferenceByName(KINDS[resource.kind], body)) {
      byName.push([resource, id, body])
      if (resource.kind === 'agent') agentsRead.set(id, { id, name: body.name ?? null })
      return
    }
    // An answer nested too deep to compare is a clear error naming the resource (compare, build-plan.ts).
    const comparison = compare(resource, body, secrets)
    if (resource.kind === 'agent') agentsRead.set(id, { id, name: body.name ?? null })
    else if (resource.kind === 'target') {
      const agent = body.scanning_agent
      if (isObject(agent) && typeof agent.id === 'string' && typeof agent.name === 'string' && !agentsRead.has(agent.id)) agentsRead.set(agent.id, { id: agent.id, name: agent.name })
    }
    // One walk of the live resource for the secrets it holds, for the output step and the rules.
    const held = liveSecrets(comparison.kind, comparison.live)
    collectLiveSecrets(liveSecretsRead, comparison.kind, comparison.live, held)
    if (comparison.fields.length > 0) changed.push(comparison)
    // Rules see the resource as it will be after the apply (design.md, "Policies").
    if (policies?.checks(resource.kind)) policies.checkAfterApply(comparison.kind, id, comparison.desired, comparison.live, { unchanged: comparison.fields.length === 0, held })
  }
  try {
    // What a list already brought (to find resources by key) is not read again.
    const toRead: DesiredResource[] = []
    for (const resource of resources) {
      const body = known.get(liveKey(resource.kind, resource.id))
      if (body === undefined) toRead.push(resource)
      else {
        unoptimisedOnResource(resource, resource.id, body)
        progress.tick(1)
      }
    }
    // A target to create is checked as it will be: its declared fields over the service's defaults (named by its URL, having no id yet).
    for (const resource of creations) {
      if (!policies?.checks(resource.kind)) continue
      const { kind, live } = createdLive(resource)
      const name = resource.naturalKey?.value ?? ''
      policies.checkAfterApply(kind, name, resource, live)
    }
    // Every declared resource gone is found, not only the first: drift reports them all, and a
    // plan refuses naming them all, each at its line (fixed in one go, not one run at a time).
    await readDeclared(toRead, tally.requester, {
      ...reads,
      onProgress: (n) => progress.tick(n),
      onResource: (kind, id, body) => unoptimisedOnResource(declared.get(liveKey(kind.name, id))!, id, body),
      onMissing: (kind, id, error) => {
        notFound ??= error
        progress.tick(1)
        gone.push(declared.get(liveKey(kind.name, id))!)
      },
    })
    if (byName.length > 0) {
      const agents = byName.some(([resource]) => Object.values(KINDS[resource.kind].references ?? {}).includes('agent'))
      const referenceNames = await identified.referenceNames!([...agentsRead.values()], agents)
      // Given to the resource itself (as its account colours are): the apply compares its answer with them too.
      for (const [resource, id, body] of byName) {
        resource.referenceNames = referenceNames
        unoptimisedOnResource(resource, id, body)
      }
    }
  } catch (error) {
    const explained = await tally.explain(error)
    throw explained === error ? explainNotFound(error, resources) : explained
  } finally {
    // Before anything is printed (the plan, or an error): another resource's value may quote one
    // of them. Learnt at once: each secret learnt makes the redaction's next look-up start over.
    learnLiveSecrets(io.redaction, liveSecretsRead)
    releaseHeap()
    progress.stop()
  }
  // Every read a 404, the lists' too: the base URL is wrong, not every declared resource gone.
  if (notFound !== undefined) {
    const explained = await tally.explain(notFound)
    if (explained !== notFound) throw explained
  }
  return { ...withMissing(assembleWithCreations(resources.length + creations.length, changed, creations, secrets.holds), gone, secrets.holds), gone, agentsRead: [...agentsRead.values()] }
}

/**
 * Plan and apply cannot update a declared resource the service no longer has (drift reports it as
 * drift): each is a problem at its id's line, as a configuration problem is (an annotation there
 * in the github format), with how to list the ids the service has.
 */
function printGone(gone: readonly DesiredResource[], options: SelectionOptions, io: RedactedIo, also: readonly Diagnostic[] = []): void {
  const problems = gone.map((resource): Diagnostic => {
    const at = resource.locate(['id'])
    return { file: at.file, line: at.line, column: at.column, path: 'id', message: `${resource.kind} ${resource.id} not found: the service has no ${resource.kind} with this id (deleted by hand, or a wrong id)` }
  })
  const kinds = [...new Set(gone.map((resource) => resource.kind))]
  const hint = kinds.length > 0 ? listIdsHint(kinds) : undefined
  printProblems(sortDiagnostics([...also, ...problems]), options, io, hint)
}

/** A declared id the service does not know: say where it is declared and how to list the real ones. */
function explainNotFound(error: unknown, resources: DesiredResource[]): unknown {
  if (!(error instanceof ScansyncError) || !/ not found/.test(error.message)) return error
  const places: string[] = []
  const notFound = new RegExp(`\\b(${KIND_NAMES.join('|')}) (\\S+) not found`, 'g')
  for (const match of error.message.matchAll(notFound)) {
    const declared = resources.find((r) => r.kind === match[1] && r.id === match[2])
    if (declared) places.push(`${declared.kind} ${declared.id} is declared at ${declared.source.file}:${declared.source.line}`)
  }
  if (places.length === 0) return error
  const kinds = [...new Set([...error.message.matchAll(notFound)].map((m) => m[1]))]
  return new ScansyncError(`${error.message}\n${places.join('\n')}\nCheck the id; ${listIdsHint(kinds, 'to')}`)
}

export interface Prepared extends Loaded {
  session: Session
  state: SecretsState
  /** How secrets compare with the state, and what an apply records in it. */
  ledger: SecretsLedger
  statePath: string
  result: PlanResult
  /** What the policies found; undefined when the configuration has none. */
  violations?: Violation[]
  /** The identities and names resolved against the live lists (and the lists read whole). */
  identified: Identified
}

/** validate → read the lists identities need, resolve → read live → plan. Undefined when the configuration is invalid (already printed). */
export async function preparePlan(options: PlanInputs, io: RedactedIo): Promise<Prepared | undefined> {
  // Reads of the declared kinds' lists start while the files load (reads only: nothing is
  // written before the configuration is valid and the plan confirmed).
  const early = await (options.readsAhead?.take() ?? startEarlyReads(options, io))
  const dropEarly = async () => {
    early?.prefetch.stop()
    await early?.session.client.close()
  }
  let loaded: Awaited<ReturnType<typeof loadSelected>>
  let token: string
  let statePath: string
  let state: SecretsState
  try {
    loaded = await loadSelected(options, io)
    if (!loaded) {
      await dropEarly()
      return undefined
    }
    token = readToken(io)
    statePath = statePathFor(options, io)
    state = await readSecretsState(statePath)
  } catch (error) {
    await dropEarly()
    throw error
  }
  const ledger = openLedger(state, stateKeys(io.env, token), io.redaction.holds)
  const session = early?.session ?? openSession(options, io)
  // One budget for the run's reads (the lists identities need, then the declared resources),
  // counting from the first page read ahead, if any: every answer of the run counts, whichever
  // way it was read.
  const prefetch = early?.prefetch
  const budget = new ReadBudget()
  budget.watch(session.client, prefetch?.readFrom(session.client))
  try {
    // Counted as the declared reads are: when every list answers 404, the base URL is what is wrong
    // (a list read whole for --unmanaged or a natural key said "name them with --id" instead).
    const listTally = new ReadTally(session.client, session.apiUrl)
    let identified: Identified
    try {
      identified = await identify(loaded.resources, listTally.requester, { unmanaged: options.unmanaged, prefetch, budget, configuration: loaded.configuration, holds: io.redaction.holds, known: ledger.context.known })
    } catch (error) {
      throw await listTally.explain(error)
    }
    if (identified.problems.length > 0) {
      // With the ids referred to that the service lacks, if their lists answer: every mistake at once.
      printProblems(sortDiagnostics([...identified.problems, ...(await identified.danglingIds(undefined, referencesNotHeld(identified.known)).catch(() => []))]), options, io)
      await session.client.close()
      return undefined
    }
    if (options.state === undefined) noteStateLeftElsewhere(statePath, options.paths, identified.resources, io)
    const listed = options.unmanaged && options.ids && options.ids.length > 0 ? new Set(undeclared(identified, options.kinds).map((item) => item.id)) : undefined
    const resources = selectIds(identified.resources, options, listed && ((id) => listed.has(id)))
    const selected = new Set(resources)
    const creations = identified.creations.filter((c) => selected.has(c))
    const existing = resources.filter((r) => r.id !== '')
    const policies = loaded.policies.length > 0 ? new PolicyChecker(loaded.policies, { holdsSecret: io.redaction.holds }) : undefined
    const { gone, agentsRead, ...result } = await compareWithLive(existing, session, ledger.context, io, policies, { known: identified.known, creations, referenceNames: identified.referenceNames }, { prefetch, budget })
    const dangling = await identified.danglingIds(resources, referencesSent(result.plan))
    // A resource gone (drift reports it as drift) and an id referred to that the service lacks: said together.
    const goneHere = options.missingIsDrift ? [] : gone
    if (dangling.length > 0 || goneHere.length > 0) {
      printGone(goneHere, options, io, dangling)
      await session.client.close()
      return undefined
    }
    identified.nameAgentsRead(agentsRead)
    // Each name as the saved plan keeps it: one holding a secret of the run is (sensitive) whole.
    showNames(result.plan, namesThrough(referenceNames(identified.names), nameShown(io.redaction)))
    return { ...loaded, resources, session, state, ledger, statePath, result, violations: policies?.violations(), identified }
  } catch (error) {
    await session.client.close()
    throw error
  }
}

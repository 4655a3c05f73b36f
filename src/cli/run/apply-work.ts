import { existsSync, statSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { ScansyncError } from '../../core/errors.js'
import { line, type RedactedIo } from '../../core/io.js'
import { declaredSecretValues, plannedFrom, stillToSend } from '../../apply/refresh.js'
import { valuesAsPlanned } from '../../apply/saved-display.js'
import { savedNames, showNames } from '../../plan/names.js'
import { savedConfiguration } from '../../plan/names-again.js'
import type { DesiredResource } from '../../core/types.js'
import type { Plan } from '../../plan/model.js'
import { compileSavedRules, type PolicyRule } from '../../config/policies.js'
import { loadConfig } from '../../config/load.js'
import { violationsAfterRead } from '../../apply/policy-gate.js'
import type { Violation } from '../../plan/policies.js'
import { decodeSavedPlan, refuseSelection, serviceForSavedPlan } from '../../plan/saved-plan.js'
import { maskedKeys, planOfReady, type Ready } from '../../plan/staleness.js'
import type { Format } from '../../render/index.js'
import { learnSecrets } from '../../secrets/known.js'
import { openLedger, readSecretsState, stateKeys, type SecretsLedger, type StateUpdate } from '../../secrets/state.js'
import { type PlanInputs, preparePlan, statePathFor } from './prepare-plan.js'
import { configurationPaths, planDirectoryOf, readSavedPlan } from './saved-plan-file.js'
import { openSession, readToken, serviceUrl, type Session } from './session.js'

/*
 * Where an apply's work comes from: a plan made now from the configuration, or a saved plan
 * (plan --out), checked and read again. apply.ts then shows, confirms, sends and reports it.
 */

export interface WorkOptions extends PlanInputs {
  format: Format
  /** A saved plan to apply instead of planning now. */
  plan?: string
}

/** What is about to be applied: the plan shown, and each changing resource with its latest read. */
export interface Work {
  plan: Plan
  ready: Ready[]
  session: Session
  ledger: SecretsLedger
  statePath: string
  stateUpdate(): StateUpdate
  /** What the configuration's policies found (a plan made now), or the rules a saved plan keeps on its fresh read. */
  violations?: readonly Violation[]
  /** The rules, checked again on the read made after a confirmation or a wait. */
  rules?: readonly PolicyRule[]
  /** The directory the positions' file names are relative to: where a saved plan was made (undefined: the current one). */
  positionsFrom?: string
  /** The declared resources names are resolved again with after a confirmation or a wait (they may rename agents). */
  configuration: readonly DesiredResource[]
}

/** A plan made now, with what the policies found; undefined when it cannot be made (said on stderr). */
export async function fromConfiguration(options: WorkOptions, io: RedactedIo): Promise<Work | undefined> {
  const prepared = await preparePlan({ ...options, command: 'apply' }, io)
  if (!prepared) return undefined
  const { plan, changed } = prepared.result
  // Over the whole configuration (no --kind, no --id), a record of a resource it does not declare is stale;
  // but only when the run reads the state's whole folder: one file of it (or --state) shares the state with others.
  const whole = !options.kinds?.length && !options.ids?.length && readsWholeFolder(options, io)
  const stateUpdate = () => prepared.ledger.update(declaredSecretValues(prepared.resources), whole)
  return {
    plan,
    ready: plannedFrom(changed, plan.changes, prepared.identified.references),
    configuration: prepared.configuration,
    session: prepared.session,
    ledger: prepared.ledger,
    statePath: prepared.statePath,
    stateUpdate,
    ...(prepared.violations ? { violations: prepared.violations } : {}),
    ...(prepared.policies.length > 0 ? { rules: prepared.policies } : {}),
  }
}

/** A saved plan, checked (keyed checksum, service URL) and read again: refused whole if any resource changed since. */
export async function fromSavedPlan(options: WorkOptions, io: RedactedIo): Promise<Work> {
  refuseSelection(options)
  const token = readToken(io)
  const keys = stateKeys(io.env, token)
  const saved = decodeSavedPlan(await readSavedPlan(options.plan!, io), { key: keys.key, env: io.env, file: options.plan! })
  const desired = saved.resources.map((r) => r.desired)
  learnSecrets(io.redaction, desired)
  // The plan's paths are as plan printed them, redacted: a fresh read's are matched in that form.
  const shownAs = (path: string): string => maskedKeys(JSON.parse(io.redaction.file(JSON.stringify(path))) as string, io.redaction.holds)
  for (const resource of saved.resources) resource.shownAs = shownAs
  io.redaction.add([keys.key])
  // Neither given: the saved plan's own message, which says why its URL is not used.
  const given = options.apiUrl === undefined && io.env.SCANSYNC_API_URL === undefined ? undefined : serviceUrl(options, io)
  const apiUrl = serviceForSavedPlan(given, saved.apiUrl)
  const paths = configurationPaths(saved.paths, options.plan!, io)
  // The state lives beside the configuration: with it moved since (a folder renamed), a default
  // path would be one no plan, apply or drift reads, and the secrets sent would be recorded there.
  // (So would the state plan was given by --state, kept relative to the plan file as the paths are.)
  if (options.state === undefined && paths[0] !== undefined && !existsSync(paths[0])) {
    throw new ScansyncError(
      `the configuration ${relative(io.cwd, paths[0]) || '.'} that ${options.plan!} was made from is no longer there (moved or renamed since), so the secrets state beside it cannot be found: run scansync plan --out again, or pass --state FILE (the .scansync/state.json beside the configuration)`,
    )
  }
  // The state plan was given by --state, where plan read it (unless apply is given another).
  const state = options.state ?? (saved.state !== undefined ? configurationPaths([saved.state], options.plan!, io)[0] : undefined)
  const statePath = statePathFor({ paths, state }, io)
  const ledger = openLedger(await readSecretsState(statePath), keys, io.redaction.holds)
  const rekeyingValues = await valuesToRekeyWith(ledger, paths, io)
  const session = openSession({ ...options, apiUrl }, io)
  try {
    const rules = await compileSavedRules(saved.policies, options.plan!)
    const configuration = savedConfiguration(saved.resources)
    const { ready, note } = await stillToSend(saved.resources, session.client, ledger.context, 'saved', configuration)
    if (note) line(io.stderr, note)
    // The rules the plan was made with, on this fresh read: a hand change made since the plan
    // that breaks one is refused as in a plan made now (the plan was saved only if it broke none of level error).
    // None found is reported as a plan made now reports it (`"violations": []`): the rules were checked.
    const violations = violationsAfterRead(rules, rules.length > 0 ? [] : undefined, ready, io.redaction.holds)
    // Shown as plan printed it: values the saved document cannot tell apart, taken again.
    valuesAsPlanned(ready)
    // The names plan showed for ids (`dc-porto-agent`), as the saved plan keeps them.
    return {
      plan: showNames(planOfReady(saved.plan, ready), savedNames(saved.names)),
      ready,
      configuration,
      session,
      ledger,
      statePath,
      stateUpdate: () => ledger.update(declaredSecretValues([...desired, ...rekeyingValues])),
      ...(violations ? { violations } : {}),
      ...(rules.length > 0 ? { rules } : {}),
      ...(saved.workingDirectory !== undefined ? { positionsFrom: resolve(planDirectoryOf(options.plan!, io.cwd), saved.workingDirectory) } : {}),
    }
  } catch (error) {
    await session.client.close()
    throw error
  }
}

/**
 * A state from before key ids is re-keyed with SCANSYNC_STATE_KEY only when the values of every
 * resource it records are at hand (secrets.rekeyed), and a saved plan holds only the resources it
 * changes: the configuration it was made from gives the others. Read for that alone, and only
 * then: a value is used only where its HMAC under the token is the one recorded, so a
 * configuration edited since, or one that does not load (a variable not set here), can re-key
 * nothing wrongly; it then stays keyed by the token, as before.
 */
async function valuesToRekeyWith(ledger: SecretsLedger, paths: string[], io: RedactedIo): Promise<readonly DesiredResource[]> {
  if (ledger.status !== 'legacy' || !ledger.keys.fromStateKey || paths.length === 0) return []
  try {
    return (await loadConfig(paths, { env: io.env, cwd: io.cwd })).config.resources
  } catch {
    return []
  }
}

/**
 * Whether the run reads the whole folder its secrets state belongs to (no --state, one folder or
 * none given): only then is a record of a resource it does not declare taken as stale (rekeyed's
 * `forgettable`); a run over some files of a folder, or over a state named with --state, would
 * drop the records of the files it was not given.
 */
function readsWholeFolder(options: WorkOptions, io: RedactedIo): boolean {
  if (options.state !== undefined || options.paths.length > 1) return false
  try {
    return statSync(resolve(io.cwd, options.paths[0] ?? '.')).isDirectory()
  } catch {
    return false
  }
}

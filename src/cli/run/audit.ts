import { Io, line, withRedaction } from '../../core/io.js'
import { EXIT } from '../../core/exit-codes.js'
import type { JsonObject, KindName } from '../../core/types.js'
import { readAll } from '../../live/read.js'
import { hasErrors, PolicyChecker, type Violation } from '../../plan/policies.js'
import { annotationPaths, GITHUB_COMMENT_LIMIT, rulesMarkdown, violationEntries, violationsGithub, violationsMarkdown, violationsSummary, violationsText, type Format } from '../../render/index.js'
import { KIND_NAMES, KINDS } from '../../resources/index.js'
import type { AuditDocument } from '../../schema/generated.js'
import { guard } from './errors.js'
import { identify, type Identified } from './identify.js'
import { loadSelected, printProblems, statePathFor } from './prepare-plan.js'
import { ReadTally } from './read-tally.js'
import { openSession, type ConnectionOptions } from './session.js'
import { readSecretsState, secretContext, stateKeys } from '../../secrets/state.js'

export interface AuditOptions extends ConnectionOptions {
  paths: string[]
  format: Format
}

/**
 * `scansync audit`: the configuration's rules against every live resource of each kind they
 * name, declared or not (contract, "Policies"). A declared resource is checked as it will be after
 * the apply, as plan checks it; any other as it is. Exit 0: no violation of level error; 2: some;
 * 1: the audit could not be made.
 */
export async function runAudit(options: AuditOptions, given: Io): Promise<number> {
  const io = withRedaction(given)
  return guard(io, { debug: options.debug }, async () => {
    const loaded = await loadSelected({ paths: options.paths, format: options.format, command: 'audit' }, io)
    if (!loaded) return EXIT.error
    if (loaded.policies.length === 0) {
      line(io.stderr, `Error: the configuration holds no policies, so there is nothing to audit; write rules in a top-level policies list (see the README, "Policies").`)
      return EXIT.error
    }
    const session = openSession(options, io)
    // As plan reads it: an agent's name the secrets state records as applied from a variable (one
    // the YAML no longer sets so) is a secret of the run there, offered in no "did you mean".
    let known: ReturnType<typeof secretContext>['known']
    try {
      known = secretContext(await readSecretsState(statePathFor({ paths: options.paths }, io)), stateKeys(io.env, session.token), io.redaction.holds).known
    } catch (error) {
      await session.client.close()
      throw error
    }
    let checkedByKind: Partial<Record<KindName, number>>
    const checker = new PolicyChecker(loaded.policies, { holdsSecret: io.redaction.holds })
    // Every read counted: when each answered 404, the error says the service URL is probably wrong (as plan's and import's do).
    const tally = new ReadTally(session.client, session.apiUrl)
    try {
      // As plan sees them: a target found by its URL, an agent by its name, teams and agents referred to by name as ids.
      // Only the declared resources of the kinds the rules name (as --kind selects for plan): the
      // others' lists are not read, nor their names resolved, for nothing.
      const audited = loaded.resources.filter((resource) => checker.checks(resource.kind))
      const identified = await identify(audited, tally.requester, { configuration: loaded.configuration, holds: io.redaction.holds, known })
      // An id referred to that the service lacks is the plan's to refuse (audit sends nothing).
      if (identified.problems.length > 0) {
        printProblems(identified.problems, { paths: options.paths, format: options.format }, io)
        return EXIT.error
      }
      checkedByKind = await checkEveryLiveResource(checker, identified, tally.requester)
    } catch (error) {
      throw await tally.explain(error)
    } finally {
      await session.client.close()
    }
    const violations = checker.violations()
    const checked = Object.values(checkedByKind).reduce((a, b) => a + b, 0)
    // Every rule, broken or not, with the resources checked against it: what an auditor accounts for.
    const policies = loaded.policies.map((rule) => ({
      name: rule.name,
      kind: rule.kind,
      level: rule.level,
      description: rule.description,
      checked: checkedByKind[rule.kind] ?? 0,
      violations: violations.filter((v) => v.policy === rule.name).length,
    }))
    const summary = { checked, rules: loaded.policies.length, policies }
    io.stdout.write(renderAudit(violations, summary, options, io.redaction.redact, annotationPaths(io.env.GITHUB_WORKSPACE, io.cwd)))
    if (options.format === 'text' || options.format === 'markdown') io.stderr.write(violationsText(violations))
    return hasErrors(violations) ? EXIT.changes : EXIT.ok
  })
}

/** Reads every resource of each kind a rule names (list pages) and checks it; how many of each kind were checked. */
async function checkEveryLiveResource(checker: PolicyChecker, identified: Identified, client: Parameters<typeof readAll>[1]): Promise<Partial<Record<KindName, number>>> {
  // Targets to create (no id yet) are not live: nothing of theirs is audited.
  const declared = new Map(identified.resources.filter((r) => r.id !== '').map((r) => [`${r.kind}/${r.id}`, r]))
  const kinds = KIND_NAMES.filter((kind) => checker.checks(kind))
  // A list identify read whole (a target declared by its URL, an agent by its name) is not read twice.
  const readWhole: Partial<Record<KindName, readonly unknown[]>> = { target: identified.lists.targets, agent: identified.lists.agents }
  const counts = await Promise.all(
    kinds.map(async (kind: KindName) => {
      const resourceKind = KINDS[kind]
      const live = (readWhole[kind] as JsonObject[] | undefined) ?? (await readAll(resourceKind, client))
      for (const raw of live) {
        const id = raw.id as string
        const projected = resourceKind.project(raw)
        const mine = declared.get(`${kind}/${id}`)
        checker.checkAfterApply(resourceKind, id, mine, projected)
      }
      return [kind, live.length] as const
    }),
  )
  return Object.fromEntries(counts)
}

interface AuditSummary {
  checked: number
  rules: number
  /** Each rule in the order of the files, with the live resources of its kind checked and how many break it. */
  policies: AuditDocument['policies'] & {}
}

const summaryText = (violations: readonly Violation[], summary: AuditSummary) =>
  `Audit: ${summary.checked} live ${summary.checked === 1 ? 'resource' : 'resources'} checked against ${summary.rules} ${summary.rules === 1 ? 'rule' : 'rules'}; ` +
  (violations.length === 0 ? 'no policy violations.' : violationsSummary(violations).replace(/^./, (c) => c.toLowerCase()))

/** What goes to stdout in each format (text: the summary line; the violations go to stderr); `redact`: the run's, before a message is shortened. */
function renderAudit(violations: readonly Violation[], summary: AuditSummary, options: AuditOptions, redact: (text: string) => string, fileOf?: (file: string) => string): string {
  switch (options.format) {
    case 'json': {
      const errors = violations.filter((v) => v.level === 'error').length
      const document: AuditDocument = {
        format_version: 1,
        violations: violationEntries(violations),
        policies: summary.policies,
        summary: { checked: summary.checked, rules: summary.rules, errors, warnings: violations.length - errors },
      }
      return JSON.stringify(document, null, 2) + '\n'
    }
    case 'markdown': {
      const rules = rulesMarkdown(summary.policies, (GITHUB_COMMENT_LIMIT - 1000) / 2, redact)
      return `### scansync audit\n\n${violationsMarkdown(violations, GITHUB_COMMENT_LIMIT - 1000 - rules.length, redact).replace(/^### Policy violations\n\n\*\*[^\n]*\*\*\n/, `**${summaryText(violations, summary)}**\n\n${rules}`)}`
    }
    case 'github':
      return violationsGithub(violations, fileOf) + summaryText(violations, summary) + '\n'
    case 'text':
      return summaryText(violations, summary) + '\n'
  }
}

// Deterministic fixtures for the benchmark: a live account (the emulator's seed) and a
// configuration declaring all of it, a given share of resources differing from the live state.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { stringify } from 'yaml'

const REPORTS = ['default', 'owasp_web_2025', 'pci_v4_0_1', 'iso27001']
const STATES = ['NEW', 'ACTIVE', 'HIDDEN', 'ARCHIVED']
const WEEKDAYS = [[1, 2, 3, 4, 5], [6, 7], [1, 3, 5]]
const id = (prefix, n) => `${prefix}${String(n).padStart(8, '0')}`

/** Resource n differs when it falls in the chosen share (every tenth for 10%). */
const differs = (n, every) => n % every === 0

export function buildAccount({ targets, assets, agents, differEvery = 10 }) {
  const teams = Array.from({ length: 20 }, (_, n) => ({ id: id('Tm', n), name: `Team ${n}` }))
  const seed = { teams, agents: [], targets: [], assets: [] }
  const config = { targets: [], assets: [], agents: [] }
  let changed = 0

  for (let n = 0; n < agents; n++) {
    const declared = { id: id('Ag', n), name: `agent-${n}`, teams: [teams[n % 20].id, teams[(n + 7) % 20].id] }
    const off = differs(n, differEvery)
    changed += off ? 1 : 0
    seed.agents.push({ ...declared, name: off ? `agent-${n}-old` : declared.name, teams: declared.teams.map((t) => ({ id: t })), online: true, fallback: false })
    config.agents.push(declared)
  }
  for (let n = 0; n < targets; n++) {
    const site = { name: `Shop ${n} (production)`, url: `https://shop-${n}.example.com/`, desc: `Customer shop number ${n}` }
    const declared = {
      id: id('Tg', n),
      site: { ...site, headers: [{ name: 'X-Scanner', value: 'scansync' }], blacklist: [`https://shop-${n}.example.com/logout`] },
      labels: ['production', { name: `team-${n % 40}`, color: '#d93f0b' }],
      scan_profile: 'normal',
      report_type: REPORTS[n % REPORTS.length],
      blackout_period: { begin: '22:00', cease: '06:00', weekdays: WEEKDAYS[n % 3], timezone: 'Europe/Lisbon', enabled: true },
      scanning_agent: agents > 0 ? { id: id('Ag', n % agents) } : null,
      fail_fast: n % 2 === 0,
    }
    const off = differs(n, differEvery)
    changed += off ? 1 : 0
    seed.targets.push({
      id: declared.id,
      site: { ...declared.site, name: off ? `Shop ${n}` : site.name, headers: [{ name: 'X-Scanner', value: 'scansync' }] },
      labels: [{ name: `team-${n % 40}`, color: '#d93f0b' }, { name: 'production', color: 'green' }],
      scan_profile: 'normal',
      report_type: declared.report_type,
      blackout_period: { ...declared.blackout_period },
      scanning_agent: declared.scanning_agent,
      fail_fast: declared.fail_fast,
    })
    config.targets.push(declared)
  }
  for (let n = 0; n < assets; n++) {
    const declared = { id: id('As', n), state: STATES[n % 4], owners: [`team-${n % 40}`], comment: `Reviewed asset ${n}` }
    const off = differs(n, differEvery)
    changed += off ? 1 : 0
    seed.assets.push({
      id: declared.id,
      name: `asset-${n}.example.com`,
      url: `https://asset-${n}.example.com/`,
      state: off ? STATES[(n + 1) % 4] : declared.state,
      owners: declared.owners.map((name) => ({ name })),
      comment: declared.comment,
      labels: [{ name: 'discovered' }],
    })
    config.assets.push(declared)
  }
  return { seed, config, changed, declared: targets + assets + agents }
}

/** Writes the configuration in files of at most `perFile` resources. */
export function writeConfig(dir, config, perFile = 500) {
  mkdirSync(dir, { recursive: true })
  for (const [list, items] of Object.entries(config)) {
    for (let i = 0; i * perFile < items.length; i++) {
      const text = stringify({ [list]: items.slice(i * perFile, (i + 1) * perFile) }, { lineWidth: 0, aliasDuplicateObjects: false })
      writeFileSync(join(dir, `${list}-${String(i).padStart(3, '0')}.yaml`), text)
    }
  }
}

/** The benchmark's workload, shared by every bench script: 4,200 declared resources, 20 ms of latency (BENCH_LATENCY_MS), parallelism 8. */
export const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20)
export const PARALLELISM = 8
export const SIZES = { targets: 2000, assets: 2000, agents: 200 }
/** Runs of each measurement: BENCH_RUNS, or the script's own default. */
export const runsOr = (fallback) => Number(process.env.BENCH_RUNS ?? fallback)

/** Every item of one kind's list on the emulator at `url`, page by page. */
export async function listAll(url, path, token) {
  const items = []
  for (let page = 1; ; page++) {
    const response = await fetch(`${url}${path}?page=${page}&length=100`, { headers: { Authorization: `JWT ${token}` } })
    const body = await response.json()
    items.push(...body.results)
    if (page >= body.page_total) return items
  }
}

/**
 * Reads every page of every kind's list once, `parallelism` at a time: the emulator makes each
 * answer's text on its first read and keeps it until a write, so that a timed run after this does
 * not pay, on the cores scansync runs on, for the emulator rendering the account (a service does
 * that on its own machines).
 */
export async function warmEmulator(url, token, listPaths, parallelism = PARALLELISM) {
  const headers = { Authorization: `JWT ${token}` }
  const pages = []
  for (const path of listPaths) {
    const first = await (await fetch(`${url}${path}?page=1&length=100`, { headers })).json()
    for (let page = 2; page <= first.page_total; page++) pages.push(`${url}${path}?page=${page}&length=100`)
  }
  let next = 0
  const worker = async () => {
    while (next < pages.length) await (await fetch(pages[next++], { headers })).text()
  }
  await Promise.all(Array.from({ length: parallelism }, worker))
}

// Review round 26 (the emulator as a user's sandbox): a seed file holding a value of a type the
// service never answers (a name or a URL given as a number, `online: "yes"`, `risk: "high"`) started, and a hand change through PATCH /_emulator/… with such a value answered 200; the next
// plan or drift then failed with "the service's answer … has an unexpected shape", blaming the
// service for the sandbox's data. Both are now refused, naming the file (or the request), the
// resource, the place and the reason, and the resource is left as it was.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSeedFile } from '../../src/emulator/seed-file.js'
import { emulator, JSON_HEADERS, smallSeed } from './helpers.js'

async function seedError(seed: unknown): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'r26-seed-'))
  try {
    const file = join(dir, 'seed.json')
    writeFileSync(file, JSON.stringify(seed))
    const error = await readSeedFile(file).then(() => undefined, (e: Error) => e.message)
    expect(error, 'the seed was accepted').toBeDefined()
    expect(error).toContain(file + ': ')
    return error!
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('a seed file with a value the service never answers', () => {
  it('is refused with the file, the resource, the place and the reason', async () => {
    expect(await seedError({ agents: [{ id: 'AgentA111111', name: 42 }] })).toMatch(/agents AgentA111111: \/name must be string/)
    expect(await seedError({ agents: [{ id: 'AgentA111111', name: 'a', online: 'yes' }] })).toMatch(/agents AgentA111111: \/online must be boolean/)
    expect(await seedError({ assets: [{ id: 'AssetA111111', name: 'a', risk: 'high' }] })).toMatch(/assets AssetA111111: \/risk must be integer/)
    expect(await seedError({ targets: [{ id: 'TargetA11111', site: { name: 'x', url: 7 } }] })).toMatch(/targets TargetA11111: \/site\/url must be string/)
  })

  it('a missing id or an unknown agent names the file too', async () => {
    expect(await seedError({ targets: [{ site: { name: 'x' } }] })).toMatch(/: targets\[0\] needs an id$/)
    expect(await seedError({ targets: [{ id: 'TargetA11111', scanning_agent: { id: 'Ghost' } }] })).toMatch(/: targets TargetA11111: unknown scanning agent/)
  })

  it('a good seed is read as before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'r26-seed-'))
    try {
      writeFileSync(join(dir, 'seed.json'), JSON.stringify(smallSeed()))
      expect((await readSeedFile(join(dir, 'seed.json'))).agents).toHaveLength(2)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('a hand change with a value the service never answers', () => {
  it('is refused with 400, the place and the reason, and changes nothing', async () => {
    const em = await emulator({ seed: smallSeed() })
    const before = em.get('agent', 'AgentA111111')
    for (const [path, body, reason] of [
      ['scanning-agents/AgentA111111', { name: 42 }, '/name must be string'],
      ['targets/TargetA11111', { site: { name: 42 } }, '/site/name must be string'],
      ['discovery/assets/AssetA111111', { risk: 'high' }, '/risk must be integer'],
    ] as const) {
      const kind = path.startsWith('targets') ? 'target' : path.startsWith('discovery') ? 'asset' : 'agent'
      const id = path.split('/').pop()!
      const was = em.get(kind, id)
      const response = await fetch(`${em.url}/_emulator/${path}/`, { method: 'PATCH', headers: JSON_HEADERS, body: JSON.stringify(body) })
      expect(response.status).toBe(400)
      expect(((await response.json()) as { detail: string }).detail).toContain(reason)
      expect(em.get(kind, id)).toEqual(was)
    }
    expect(em.get('agent', 'AgentA111111')).toEqual(before)
    const ok = await fetch(`${em.url}/_emulator/scanning-agents/AgentA111111/`, { method: 'PATCH', headers: JSON_HEADERS, body: JSON.stringify({ name: 'renamed' }) })
    expect(ok.status).toBe(200)
  })
})

// One drift with a target declared by its URL that the service does not have yet and a target
// declared by id that was deleted by hand: two different facts in two different words. The text
// said the first was "missing from the service" beside "declared by id but gone from the
// service" for the second (a review of round 19). The real CLI against the emulator.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleConfig, exampleSeed } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

it('drift: "not on the service yet (apply creates it)" for a target to create, "gone" for a deleted one', async () => {
  const seed = exampleSeed()
  seed.targets = seed.targets!.filter((t) => t.id !== '7QwErTy2UiOp')
  const em = await emulator({ seed })
  const dir = exampleConfig()
  writeFileSync(join(dir, 'new.yaml'), 'targets:\n  - site: {name: New application, url: "https://new.example.com/"}\n')
  for (const format of ['text', 'markdown']) {
    const run = await cli(em, dir, ['drift', '.', '--format', format])
    expect(run.code).toBe(2)
    expect(run.stdout).toMatch(/1 declared resource is not on the service yet \(apply creates it\), .*, 1 declared by id but gone from the service\./)
    expect(run.stdout).not.toMatch(/missing from the service/)
  }
  const text = await cli(em, dir, ['drift', '.'])
  expect(text.stdout).toMatch(/^\+ target "New application" \(https:\/\/new\.example\.com\/\) \(not on the service yet: apply creates it\)$/m)
})

#!/usr/bin/env node
// Writes oclif.manifest.json so that a run imports only the command it runs (fast start-up).
import { Config } from '@oclif/core'
import { rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const manifestPath = join(root, 'oclif.manifest.json')
rmSync(manifestPath, { force: true })
const config = await Config.load({ root })
const plugin = config.plugins.get(config.pjson.name)
writeFileSync(manifestPath, JSON.stringify(plugin.manifest, null, 2) + '\n')

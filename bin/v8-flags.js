'use strict'
const { setFlagsFromString } = require('node:v8')

/** The V8 versions (Node.js 20 to 24) known to have the flags set below: V8 prints an error for a flag it does not know. */
const KNOWN_V8 = /^1[1-3]\./.test(process.versions.v8)

/** TurboFan's budget of inlined bytecode per optimised function (V8's default is 920); see tuneV8. */
const INLINING_BUDGET = 25

/** By what factor the young generation grows when V8 finds it too small (V8's default is 2); see tuneV8. */
const SEMI_SPACE_GROWTH = 1

/** The key of globalThis that says tuneV8 set SEMI_SPACE_GROWTH: src/cli/memory.ts sets V8's factor back then only (not over one node was given, nor on a V8 not known to have the flag). */
const YOUNG_GENERATION_KEPT = Symbol.for('scansync.youngGenerationKept')

/**
 * Node's own modules that a command of the CLI loads after start-up (through oclif, undici, the
 * client and the prompts; `test/cli/builtins-before-flags.test.ts` runs the commands and fails on
 * one missing). Node compiles its modules with a code cache made under V8's default flags, and V8
 * refuses that cache once any flag differs (the flags are part of its check): each such module
 * then compiles from source, 3–4 times slower: about 30 ms of a plan's start-up for these.
 * Loaded before the flags change, they take the cache.
 */
const RUN_BUILTINS = ['assert', 'child_process', 'crypto', 'dgram', 'diagnostics_channel', 'fs/promises', 'http', 'net', 'perf_hooks', 'process', 'readline', 'readline/promises', 'timers/promises', 'tty', 'vm']

/** Loads RUN_BUILTINS, and the parts of Node that load with their first use: the standard streams, Web Crypto, File, the address classes of `net`. */
function loadRunBuiltins() {
  for (const name of RUN_BUILTINS) require(`node:${name}`)
  void [process.stdout, process.stderr, globalThis.crypto, require('node:buffer').File, require('node:net').BlockList, require('node:net').SocketAddress]
}

/** Whether node was given the flag on its command line (NODE_OPTIONS may not hold V8's), its words joined by `-` or `_` as node takes them: then it is left as given. */
const given = (flag) => process.execArgv.some((arg) => arg.replaceAll('_', '-').startsWith(flag))

/**
 * V8's tiering, tuned for a run of the CLI: a process of one to a few seconds whose work is a few
 * thousand resources, on cores the plan keeps busy (measured in docs/performance.md, "Code V8
 * leaves unoptimised"). Set at run time, before the code they concern has run; the benchmarks
 * that measure the CLI's work in a process of their own call this too.
 */
function tuneV8() {
  loadRunBuiltins()
  /*
   * undici parses HTTP with llhttp compiled to WebAssembly. V8 runs it first as its baseline
   * compiler made it and, within the first answers (even in a plan of one resource), compiles its
   * main function again with TurboFan on a helper thread: about 190 ms of CPU and 30 MB, and a
   * process that is done waits for that compile before it exits (130–190 ms of a small plan's
   * 0.4–0.6 s). With the largest budget, the baseline code serves until some 70 MB of answers have
   * been parsed (about 30,000 resources; a plan of 4,200 reads 9.8 MB), past which the optimised
   * parser pays for itself.
   */
  if (KNOWN_V8 && !given('--wasm-tiering-budget')) setFlagsFromString('--wasm-tiering-budget=2147483647')
  /*
   * Functions named `unoptimised…` run once or a few times per resource (the diff, the checks of
   * declared resources, the reads' hand-over, the after-apply shapes and the policy rules'
   * validators) and stay with V8's baseline code. TurboFan compiled each within the first few
   * hundred resources, some twice after a deoptimisation; over a plan of 4,200 resources that
   * cost more CPU than the optimised code saved. Everything else is optimised as usual.
   */
  if (KNOWN_V8 && !given('--turbo-filter')) setFlagsFromString('--turbo-filter=-unoptimised*')
  /*
   * What TurboFan does compile, it compiles on helper threads that share the two cores with the
   * main thread (and, in the benchmark, the service): its default inlining budget (920 bytes of
   * bytecode a function) made some functions of the block reader cost 20–50 ms each to compile,
   * some of them twice, 0.4–0.6 s of helper-thread CPU in a plan of 4,200 resources. With a budget
   * of 25, TurboFan still inlines small functions (27 bytes or fewer, which take no budget) and
   * little else: a plan of 4,200 −16% CPU and −5 to −9% wall, validate + diff of 10,000 −8 to −23%
   * CPU, a plan of 100,000 unchanged (docs/performance.md, tenth round).
   */
  if (KNOWN_V8 && !given('--max-inlined-bytecode-size-cumulative')) setFlagsFromString(`--max-inlined-bytecode-size-cumulative=${INLINING_BUDGET}`)
  /*
   * The young generation stays at the size it starts with (two semi-spaces of 1 MB on 64 bits)
   * instead of doubling up to 16 MB each as survivors pile up. Its pages are the same ones again at
   * every scavenge, so a larger one is memory touched for the first time: 7,000–8,000 more page
   * faults in a plan of 4,200 resources, and a fault costs 13–16 µs in the kernel on the machine
   * the benchmark runs on (a virtual machine), more than the extra scavenges of a small young
   * generation cost: plan of 4,200 −10% wall and CPU (docs/performance.md, twenty-third round).
   * A plan that comes to hold more than 64 MB lets it grow again (src/cli/memory.ts): with many
   * survivors, small scavenges cost more than the faults (a plan of 20,000: 14–20% slower without).
   */
  if (KNOWN_V8 && !given('--semi-space-growth-factor')) {
    setFlagsFromString(`--semi-space-growth-factor=${SEMI_SPACE_GROWTH}`)
    globalThis[YOUNG_GENERATION_KEPT] = true
  }
  /*
   * src/cli/memory.ts asks for `gc`, which needs this flag. Set here, with the others, before any
   * code is loaded: V8 takes the code cache of the build's CommonJS files (src/core/code-cache.ts)
   * only under the flags it was made with, and the build sets them through this function too.
   */
  setFlagsFromString('--expose-gc')
}

module.exports = { INLINING_BUDGET, SEMI_SPACE_GROWTH, tuneV8 }

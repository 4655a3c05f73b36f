const c0 = process.cpuUsage(); const t0 = performance.now()
for (const m of process.argv.slice(2)) await import(m)
const c = process.cpuUsage(c0)
console.log(process.argv.slice(2).join('+'), ((c.user + c.system) / 1000).toFixed(1), (performance.now() - t0).toFixed(1))

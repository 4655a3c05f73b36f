// The configuration the annotation-path tests run from a sub-folder: a changed target and a rule
// it breaks (a warning), so that plan, drift, apply and apply --plan each annotate a file.

export const TARGETS = `targets:
  - id: 2DZkoZH8WMEM
    site:
      name: "Shop changed"
`

export const POLICY = `policies:
  - name: shop-is-renamed-back
    kind: target
    require:
      properties: {site: {properties: {name: {const: Shop}}}}
    level: warning
`

const fileOf = (line: string) => /^::\w+ file=([^,]*),/.exec(line)?.[1]

/** The `file=` of each annotation in an output, in order. */
export const annotated = (output: string) => output.split('\n').filter((line) => line.startsWith('::')).map(fileOf)

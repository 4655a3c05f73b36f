import type { Format } from 'ajv'

declare const schemaFormats: {
  COMMON_URI: RegExp
  formats: Record<'uri' | 'email' | 'date-time' | 'uuid', Format>
}
export = schemaFormats

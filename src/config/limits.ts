/**
 * The largest configuration file read: 100,000 resources of a typical size take 17 MB and load in
 * about 350 MB of memory, in a second or two. A larger file is refused before it is read (split
 * it: a configuration may hold any number of files). In a module of its own so that the reads
 * started before loading (cli/run/early-reads.ts) know it without loading the loader.
 */
export const MAX_FILE_BYTES = 20 * 1024 * 1024

/** One entry of `git ls-tree -r -l -z`. */
export interface TreeEntry {
  mode: string;
  type: 'blob' | 'commit' | 'tree';
  object: string;
  /** Bytes of a blob (0 for other entries). */
  size: number;
  path: string;
}

/** The entries of `git ls-tree -r -l -z` output. */
export function parseTree(out: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const record of out.toString('utf8').split('\0')) {
    const match = /^(\d+) (blob|commit|tree) ([0-9a-f]+) +(-|\d+)\t([\s\S]+)$/.exec(record);
    if (!match) continue;
    entries.push({
      mode: match[1],
      type: match[2] as TreeEntry['type'],
      object: match[3],
      size: match[4] === '-' ? 0 : Number(match[4]),
      path: match[5],
    });
  }
  return entries;
}

/**
 * A path as a sparse-checkout (gitignore) pattern matching exactly it: wildcards, brackets,
 * backslashes and spaces escaped. A line break, which a pattern cannot hold, becomes `?`: a file
 * of a name that differs only there is left out of the checkout too, which only MkDocs pages
 * (read from disk, not from git) would notice.
 */
export function sparsePattern(path: string): string {
  return path.replace(/[\\*?[\]!# ]/g, (char) => `\\${char}`).replace(/[\r\n]/g, '?');
}

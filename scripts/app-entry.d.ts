/** The apps scripts/build-apps.js bundles. */
export const APPS: readonly ('api' | 'worker')[];
/** Where the bundles are, relative to the repository's folder. */
export const BUNDLE_DIR: string;
/** node's arguments that start `app`: its bundle while current, its TypeScript entry otherwise. */
export function appArgs(root: string, app: 'api' | 'worker'): string[];
/** The app's bundle when current, else undefined. */
export function currentAppBundle(root: string, app: 'api' | 'worker'): string | undefined;
/** `file` in `folder` when every input its meta.json lists is older than it, else undefined. */
export function currentBundle(root: string, folder: string, file: string): string | undefined;

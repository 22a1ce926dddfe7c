/**
 * Loading a campaign file: its default export (or an export named `campaign`) is a
 * campaign made by `define`. A `.js` or `.mjs` file is imported as it is. Node 20 cannot
 * strip TypeScript's types, so for a `.ts`, `.mts` or `.cts` file tsx's loader is
 * registered for the thread (once), from the user's project when it has tsx (resolved
 * next to the file), else from this package's own install if it has one; without tsx the
 * error says what to do. Registered, not `tsImport`ed: tsImport loads the file's imports
 * anew, and a second copy of `timing-wheel/simulation` would not know the first's hosts.
 */
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { TimingWheelError, show } from '../errors.js'
import { type Campaign, isCampaign } from './campaign.js'

type Register = () => unknown

let tsxRegistered = false

const registerTsx = async (path: string): Promise<void> => {
  for (const from of [path, import.meta.url]) {
    try {
      // The ES module build of tsx's API (its CommonJS one registers a loader it cannot find
      // when imported from an ES module), found through tsx's own exports map.
      const manifest = createRequire(from).resolve('tsx/package.json')
      const exported = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, { import?: { default?: string } }> }).exports?.['./esm/api']?.import?.default
      if (exported === undefined) continue
      const api = (await import(pathToFileURL(join(dirname(manifest), exported)).href)) as { register?: Register }
      if (typeof api.register !== 'function') continue
      api.register()
      return
    } catch {
      // Not installed there: try the next place.
    }
  }
  throw new TimingWheelError('InvalidArgument', `campaign file ${show(path)} is TypeScript, which Node 20 loads only through tsx: install it (npm i -D tsx) or pass the file compiled to .js or .mjs`)
}

/**
 * The campaign a file exports (default, or `campaign`). `InvalidArgument` for a file that
 * does not exist or exports no campaign; whatever the file throws while loading, as it is.
 *
 * @example
 * const campaign = await loadCampaign('sim/lease.campaign.ts')
 */
export const loadCampaign = async (file: string): Promise<Campaign> => {
  if (typeof file !== 'string' || file === '') throw new TimingWheelError('InvalidArgument', `campaign file ${show(file)} is not a path`)
  const path = resolve(file)
  if (!existsSync(path)) throw new TimingWheelError('InvalidArgument', `campaign file ${show(file)} does not exist (looked at ${show(path)})`)
  const url = pathToFileURL(path).href
  if (/\.[cm]?ts$/.test(path) && !tsxRegistered) {
    await registerTsx(path)
    tsxRegistered = true
  }
  const module = (await import(url)) as Record<string, unknown>
  const found = isCampaign(module['default']) ? module['default'] : module['campaign']
  if (!isCampaign(found)) {
    throw new TimingWheelError('InvalidArgument', `campaign file ${show(file)} exports no campaign: its default export (or \`campaign\`) must be Campaign.define's result`)
  }
  return found
}

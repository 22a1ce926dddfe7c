#!/usr/bin/env node
/**
 * `npx timing-wheel simulate <file>`: the package's command (cli.ts says what it does).
 *
 * @module
 */
import { main } from './cli.js'

void main(process.argv.slice(2)).then((code) => (process.exitCode = code))

/**
 * A Jest test environment whose fake timers run on the timing wheel: Jest's own Node
 * environment, with the module behind `jest.useFakeTimers()` swapped for
 * `timing-wheel/fake-timers`. Jest builds its modern fake timers (`@jest/fake-timers`)
 * on `@sinonjs/fake-timers`' `withGlobal(global)` and drives every `jest.*` timer function
 * through the clocks it installs; handing it our `withGlobal` instead, which has the same
 * shape, moves all of them onto the wheel and changes nothing else.
 *
 * Switch a project with one line of Jest configuration:
 *
 * @example
 * // jest.config.js
 * export default { testEnvironment: 'timing-wheel/jest-environment' }
 *
 * @module
 */
import { TestEnvironment as NodeEnvironment } from 'jest-environment-node'
import { onTimingWheel } from './on-timing-wheel.js'

/**
 * Jest's Node environment, with `jest.useFakeTimers()` on the timing wheel.
 *
 * @example
 * // jest.config.json
 * { "testEnvironment": "timing-wheel/jest-environment" }
 */
export default class TimingWheelEnvironment extends NodeEnvironment {
  constructor(...args: ConstructorParameters<typeof NodeEnvironment>) {
    super(...args)
    onTimingWheel(this)
  }
}

export { TimingWheelEnvironment as TestEnvironment }
export { onTimingWheel }

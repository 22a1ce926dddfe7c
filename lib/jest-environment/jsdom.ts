/**
 * Jest's jsdom environment with `jest.useFakeTimers()` on the timing wheel, for projects
 * that test browser code. It needs `jest-environment-jsdom` installed, as Jest's own
 * `testEnvironment: 'jsdom'` does.
 *
 * @example
 * // jest.config.js
 * export default { testEnvironment: 'timing-wheel/jest-environment/jsdom' }
 *
 * @module
 */
import { TestEnvironment as JsdomEnvironment } from 'jest-environment-jsdom'
import { onTimingWheel } from './on-timing-wheel.js'

/**
 * Jest's jsdom environment, with `jest.useFakeTimers()` on the timing wheel.
 *
 * @example
 * // jest.config.json
 * { "testEnvironment": "timing-wheel/jest-environment/jsdom" }
 */
export default class TimingWheelJsdomEnvironment extends JsdomEnvironment {
  constructor(...args: ConstructorParameters<typeof JsdomEnvironment>) {
    super(...args)
    onTimingWheel(this)
  }
}

export { TimingWheelJsdomEnvironment as TestEnvironment }

// Uses every jest.* timer function. Run by spec/jest-environment.spec.ts under Jest's node and
// jsdom environments and under timing-wheel's: the results must agree, but for the one test
// that tells the two apart.
const { performance } = require('node:perf_hooks')

beforeEach(() => jest.useFakeTimers({ now: Date.UTC(2024, 0, 1) }))
afterEach(() => jest.useRealTimers())

const start = Date.UTC(2024, 0, 1)

test('advanceTimersByTime fires what is due, in order, with Date.now at each due time', () => {
  const seen = []
  setTimeout(() => seen.push(['b', Date.now() - start]), 20)
  setTimeout(() => seen.push(['a', Date.now() - start]), 10)
  const every = setInterval(() => seen.push(['i', Date.now() - start]), 15)
  jest.advanceTimersByTime(31)
  clearInterval(every)
  expect(seen).toEqual([['a', 10], ['i', 15], ['b', 20], ['i', 30]])
  expect(jest.now()).toBe(start + 31)
})

test('runAllTimers runs timers that timers schedule; runOnlyPendingTimers does not', () => {
  const seen = []
  const chain = (n) => () => { seen.push(n); if (n < 3) setTimeout(chain(n + 1), 5) }
  setTimeout(chain(0), 5)
  jest.runOnlyPendingTimers()
  expect(seen).toEqual([0])
  jest.runAllTimers()
  expect(seen).toEqual([0, 1, 2, 3])
  expect(jest.getTimerCount()).toBe(0)
})

test('advanceTimersToNextTimer steps from timer to timer', () => {
  const seen = []
  setTimeout(() => seen.push(100), 100)
  setTimeout(() => seen.push(300), 300)
  jest.advanceTimersToNextTimer()
  expect(seen).toEqual([100])
  jest.advanceTimersToNextTimer(2)
  expect(seen).toEqual([100, 300])
  expect(jest.now() - start).toBe(300)
})

test('setSystemTime moves Date, not the timers; getRealSystemTime reads the real clock', () => {
  const seen = []
  setTimeout(() => seen.push(new Date().toISOString()), 50)
  jest.setSystemTime(new Date('2030-06-01T00:00:00Z'))
  expect(new Date().toISOString()).toBe('2030-06-01T00:00:00.000Z')
  jest.advanceTimersByTime(50)
  expect(seen).toEqual(['2030-06-01T00:00:00.050Z'])
  expect(Math.abs(jest.getRealSystemTime() - performance.timeOrigin - performance.now())).toBeLessThan(60_000)
})

test('getTimerCount and clearAllTimers', () => {
  setTimeout(() => {}, 10)
  setInterval(() => {}, 10)
  ;(typeof setImmediate === 'function' ? setImmediate : setTimeout)(() => {}) // jsdom has no setImmediate
  expect(jest.getTimerCount()).toBe(3)
  jest.clearAllTimers()
  expect(jest.getTimerCount()).toBe(0)
})

test('the async variants let promise callbacks run between timers', async () => {
  const seen = []
  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
  const retry = async () => { for (let i = 0; i < 3; i++) { seen.push(Date.now() - start); await wait(1000) } }
  const done = retry()
  await jest.advanceTimersByTimeAsync(2000)
  expect(seen).toEqual([0, 1000, 2000])
  await jest.runAllTimersAsync()
  await done
  setTimeout(() => seen.push('next'), 10)
  await jest.advanceTimersToNextTimerAsync()
  setTimeout(() => seen.push('pending'), 10)
  await jest.runOnlyPendingTimersAsync()
  expect(seen).toEqual([0, 1000, 2000, 'next', 'pending'])
})

test('advanceTimersToNextFrame and runAllTicks', () => {
  const seen = []
  setTimeout(() => seen.push(['timeout', Date.now() - start]), 10)
  process.nextTick(() => seen.push('tick'))
  jest.runAllTicks()
  expect(seen).toEqual(['tick'])
  jest.advanceTimersToNextFrame() // to the next 16 ms frame boundary
  expect(seen).toEqual(['tick', ['timeout', 10]])
  expect(jest.now() - start).toBe(16)
})

test('requestAnimationFrame, where the environment has one, fires at the next frame', () => {
  if (typeof requestAnimationFrame !== 'function') return
  const seen = []
  requestAnimationFrame(() => seen.push(Date.now() - start))
  jest.advanceTimersByTime(5)
  expect(seen).toEqual([])
  jest.advanceTimersToNextFrame()
  expect(seen).toEqual([16])
})

test('useRealTimers puts the real functions back', () => {
  const fake = setTimeout
  jest.useRealTimers()
  expect(setTimeout).not.toBe(fake)
  jest.useFakeTimers()
  expect(setTimeout).not.toBe(fake)
})

test('tells the clocks apart: a non-finite advance throws on the wheel', () => {
  // fake-timers would move the clock to NaN; timing-wheel/fake-timers refuses (a deliberate difference).
  // (The error comes from the environment's realm, so it is matched by its message.)
  expect(() => jest.advanceTimersByTime(Number.NaN)).toThrow('needs a finite number of milliseconds')
})

test('tells the clocks apart: a refusal names the jest call and its value, from this line', async () => {
  const first = (error) => error.stack.split('\n').find((line) => /^\s+at /.test(line))
  const refused = []
  for (const [call, words] of [
    [() => jest.advanceTimersByTime(Number.NaN), 'jest.advanceTimersByTime(NaN) needs a finite number of milliseconds'],
    [() => jest.advanceTimersByTime(-1), 'jest.advanceTimersByTime(-1) needs a finite number of milliseconds, 0 or more'],
    [() => jest.setSystemTime(Number.POSITIVE_INFINITY), 'jest.setSystemTime(Infinity) needs a finite number of milliseconds or a valid Date'],
    [() => jest.advanceTimersByTimeAsync(Number.NaN), 'jest.advanceTimersByTimeAsync(NaN) needs a finite number'],
  ]) {
    const now = Date.now()
    try {
      await call()
    } catch (error) {
      refused.push([error.message.includes(words), error.message.includes('VirtualClock'), first(error).includes('timers.test.cjs'), Date.now() === now])
    }
  }
  expect(refused).toEqual(Array(4).fill([true, false, true, true]))
})

test('tells the clocks apart: AbortSignal.timeout aborts on the wheel’s time', () => {
  // Jest's fake timers leave AbortSignal.timeout on real time (fake-timers #521).
  const signal = AbortSignal.timeout(1_000)
  jest.advanceTimersByTime(999)
  expect(signal.aborted).toBe(false)
  jest.advanceTimersByTime(1)
  expect(signal.aborted).toBe(true)
  expect(signal.reason.name).toBe('TimeoutError')
})

test('tells the clocks apart: a queue started from queueMicrotask after a promise runs every task', async () => {
  // A queue that starts its next task from queueMicrotask after a task's promise resolves, as
  // p-queue 9 and 10 do. Jest fakes queueMicrotask: on fake-timers the job queued from the native
  // continuation waits for a timer that never comes; on the wheel the async advance settles it.
  const waiting = []
  let running = false
  const next = () => {
    const task = running ? undefined : waiting.shift()
    if (task === undefined) return
    running = true
    task().finally(() => {
      running = false
      queueMicrotask(next)
    })
  }
  const ends = []
  for (let i = 0; i < 5; i++) {
    waiting.push(() => new Promise((resolve) => setTimeout(resolve, 1000)).then(() => ends.push(Date.now() - start)))
  }
  next()
  await jest.advanceTimersByTimeAsync(10_000)
  expect(ends).toEqual([1000, 2000, 3000, 4000, 5000])
})

test('tells the clocks apart: auto-advance settles a job a promise queues before time moves', async () => {
  // A timer's promise continuation queues a job whose own continuation queues a nextTick:
  // on Node both run at 10 ms. fake-timers' nextAsync mode runs the last one at 500 ms.
  const seen = []
  setTimeout(async () => {
    await null
    queueMicrotask(async () => {
      await null
      process.nextTick(() => seen.push(Date.now() - start))
    })
  }, 10)
  setTimeout(() => seen.push(Date.now() - start), 500)
  jest.setTimerTickMode({ mode: 'nextAsync' })
  const { setTimeout: realWait } = jest.requireActual('node:timers')
  for (let i = 0; i < 100 && seen.length < 2; i++) await new Promise((resolve) => realWait(resolve, 1))
  jest.setTimerTickMode({ mode: 'manual' })
  expect(seen).toEqual([10, 500])
})

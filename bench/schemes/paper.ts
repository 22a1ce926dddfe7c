/**
 * What Varghese & Lauck predict for each scheme and routine: the average latency as a
 * function of n, the number of outstanding timers (Figures 4 and 6, sections 5 and 6).
 *
 * Each prediction carries a `shape`: a cost function of n, up to a constant factor. The
 * analysis compares the measured growth with the shape's growth over the same sizes, so a
 * prediction such as "O(1) while n < M, O(n/M) after" is compared as the curve it is,
 * not as a single exponent. For Scheme 6's tick the shape uses the paper's own
 * instruction counts from its VAX implementation (section 7): 4 to skip an array element,
 * 6 per timer decremented.
 */

export type Op = 'start' | 'stop' | 'tick'

export const ops: readonly Op[] = ['start', 'stop', 'tick']

/** The paper's names for the routines. */
export const routineName: Readonly<Record<Op, string>> = {
  start: 'START_TIMER',
  stop: 'STOP_TIMER',
  tick: 'PER_TICK_BOOKKEEPING',
}

export interface Prediction {
  /** As the paper writes it. */
  readonly label: string
  /** Cost as a function of n, up to a constant factor. */
  readonly shape: (n: number) => number
  /** Where the paper says it. */
  readonly source: string
}

const constant: Prediction['shape'] = () => 1
const logarithmic: Prediction['shape'] = (n) => Math.log2(n)
const linear: Prediction['shape'] = (n) => n

/** The simple laws a measurement is compared with when it misses its prediction. */
export const laws: ReadonlyArray<{ readonly label: string; readonly shape: Prediction['shape'] }> = [
  { label: 'O(1)', shape: constant },
  { label: 'O(log n)', shape: logarithmic },
  { label: 'O(n)', shape: linear },
]

/** Predictions of scheme `number` (1 to 7); `tableSize` is M of Schemes 5 and 6. */
export const predictions = (number: number, tableSize: number): Readonly<Record<Op, Prediction>> => {
  const m = tableSize
  switch (number) {
    case 1:
      return {
        start: { label: 'O(1)', shape: constant, source: 'Figure 4' },
        stop: { label: 'O(1)', shape: constant, source: 'Figure 4' },
        tick: { label: 'O(n)', shape: linear, source: 'Figure 4' },
      }
    case 2:
      return {
        start: { label: 'O(n)', shape: linear, source: 'Figure 4' },
        stop: { label: 'O(1)', shape: constant, source: 'Figure 4' },
        tick: { label: 'O(1)', shape: constant, source: 'Figure 4' },
      }
    case 3:
      return {
        start: { label: 'O(log n)', shape: logarithmic, source: 'Figure 6' },
        // A heap rebalances after a deletion: the balanced-tree case of Figure 6's note.
        stop: { label: 'O(log n)', shape: logarithmic, source: 'Figure 6 (balanced)' },
        tick: { label: 'O(1)', shape: constant, source: 'Figure 6' },
      }
    case 4:
      return {
        start: { label: 'O(1)', shape: constant, source: 'section 5' },
        stop: { label: 'O(1)', shape: constant, source: 'section 5' },
        tick: { label: 'O(1)', shape: constant, source: 'section 5' },
      }
    case 5:
      return {
        start: { label: 'O(1) if n < M, else O(n/M)', shape: (n) => 1 + n / m, source: 'section 6.1.1' },
        stop: { label: 'O(1)', shape: constant, source: 'section 6.1.1' },
        tick: { label: 'O(1)', shape: constant, source: 'section 6.1.1' },
      }
    case 6:
      return {
        start: { label: 'O(1)', shape: constant, source: 'section 6.1.2' },
        stop: { label: 'O(1)', shape: constant, source: 'section 6.1.2' },
        tick: { label: 'O(1) if n < M: 4 + 6n/M', shape: (n) => 4 + (6 * n) / m, source: 'sections 6.1.2, 7' },
      }
    case 7:
      return {
        start: { label: 'O(m), m levels: O(1) in n', shape: constant, source: 'section 6.2' },
        stop: { label: 'O(1)', shape: constant, source: 'section 6.2' },
        tick: { label: 'O(1) average', shape: constant, source: 'section 6.2' },
      }
    default:
      throw new RangeError(`the paper has no scheme ${number}`)
  }
}

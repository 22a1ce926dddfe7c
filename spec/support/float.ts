/** The neighbouring doubles of a number: the tests aim at the edges of intervals with them. */
export { nextDown, nextUp } from '../../lib/testing/float.js'

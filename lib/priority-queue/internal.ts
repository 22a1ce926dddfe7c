/**
 * What the time layer needs of the queue beyond its public face: a time stored beside
 * each key, removal of the due elements of the current key, and what `add`'s quick path
 * places rows with. Not exported from the package.
 */
export {
  addWithAt,
  advanceTo,
  insert,
  leastKeyAtLevel0,
  minKeyOr,
  minValue,
  changeWithAt,
  eltAt,
  eltKeyAs,
  eltValueAs,
  removeAtMinKeyUpTo,
  atRangeOfMinKey,
  toArrayInOrder,
  isFiring,
  nameAs,
} from './priority-queue.js'
export { fitsInRow, noteLinked, takeUnusedRow } from './pool.js'

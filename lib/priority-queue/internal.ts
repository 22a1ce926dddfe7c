/**
 * What the time layer needs of the queue beyond its public face: a time stored beside
 * each key, and removal of the due elements of the current key. Not exported from the
 * package.
 */
export {
  addWithAt,
  advanceTo,
  insert,
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

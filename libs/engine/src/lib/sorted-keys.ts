/** Index of `k` in ascending `keys` (binary search), or -1. The compact tables keep their keys sorted. */
export function sortedIndexOf(keys: ArrayLike<number>, k: number): number {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = keys[mid];
    if (v === k) return mid;
    if (v < k) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

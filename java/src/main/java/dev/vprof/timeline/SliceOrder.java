package dev.vprof.timeline;

/**
 * Orders slices by start ascending, then end descending, so that a parent comes before a child that
 * starts with it. That is the order in which nested slices can be written as begin/end pairs.
 */
final class SliceOrder {
    private SliceOrder() {}

    /** True when slices are already in slice order (the common case: CUPTI delivers in order). */
    static boolean isSorted(LongColumn start, LongColumn end) {
        for (int i = 1, n = start.size(); i < n; i++) {
            if (compare(start, end, i - 1, i) > 0) {
                return false;
            }
        }
        return true;
    }

    /** A permutation that puts the slices in slice order; stable, so equal slices keep arrival order. */
    static int[] order(LongColumn start, LongColumn end) {
        int n = start.size();
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        int[] tmp = new int[n];
        // Bottom-up merge sort on indices: stable and allocation-bounded, no boxing at 10 M slices.
        for (int width = 1; width < n; width <<= 1) {
            for (int lo = 0; lo < n - width; lo += width << 1) {
                int mid = lo + width;
                int hi = Math.min(lo + (width << 1), n);
                if (compare(start, end, idx[mid - 1], idx[mid]) <= 0) {
                    continue;
                }
                int a = lo;
                int b = mid;
                int k = lo;
                while (a < mid && b < hi) {
                    tmp[k++] = compare(start, end, idx[a], idx[b]) <= 0 ? idx[a++] : idx[b++];
                }
                while (a < mid) {
                    tmp[k++] = idx[a++];
                }
                while (b < hi) {
                    tmp[k++] = idx[b++];
                }
                System.arraycopy(tmp, lo, idx, lo, hi - lo);
            }
        }
        return idx;
    }

    private static int compare(LongColumn start, LongColumn end, int i, int j) {
        int c = Long.compare(start.get(i), start.get(j));
        return c != 0 ? c : Long.compare(end.get(j), end.get(i));
    }
}

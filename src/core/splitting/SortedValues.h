// Node values sorted with their positions, as std::sort orders
// (value, position) pairs, but by a radix sort on the values' bits: the
// splitters sort every drawn predictor at every node, and for a few thousand
// rows a radix sort is several times faster than comparison sorting.
#ifndef SVFOREST_SORTEDVALUES_H
#define SVFOREST_SORTEDVALUES_H

#include <cstddef>
#include <utility>
#include <vector>

namespace svf {

// sorted[i] = (value, position) in increasing order of value, ties by
// position; -0.0 sorts as 0.0. Values must not be NaN. `keys` is scratch.
void sort_with_positions(const double* values, size_t n, std::vector<std::pair<double, int>>& sorted,
                         std::vector<unsigned long long>& keys);

}  // namespace svf
#endif

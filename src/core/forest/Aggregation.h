// How the trees of a forest make one answer for a row: the one rule used by
// prediction, by the out-of-bag results of training and (through the R
// binding .svf_decide_classes) by combine(). What it keeps per row adds up
// exactly over trees in any grouping, so the parts of a forest (fits with
// first_tree) merge into the answers of the forest grown whole:
// - vote counts (integers);
// - class shares on a grid of 2^-32: a tree's share is rounded to the grid,
//   and sums of up to 2^21 such shares are exact doubles in any order (a
//   plain double sum depends on the order of its terms);
// - for max_confidence, the confidence and class of the first most confident
//   tree (an earlier tree wins ties, so parts merge in tree order);
// - regression: an exact fixed-point sum (ExactSum) of the trees' values.
#ifndef SVFOREST_AGGREGATION_H
#define SVFOREST_AGGREGATION_H

#include <cmath>
#include <cstddef>
#include <string>

namespace svf {

enum class Aggregation { Vote, Prob, MaxConfidence };

// "vote", "prob" or "max_confidence"; throws std::invalid_argument otherwise.
Aggregation aggregation_named(const std::string& name);

// 2^32: the grid of class shares.
constexpr double kShareGrid = 4294967296.0;
inline double grid_share(double p) { return std::nearbyint(p * kShareGrid) / kShareGrid; }

// One row's tally over trees; the K class entries lie `stride` apart (the
// column-major n x K matrices of the out-of-bag results, or a row's own
// vectors with stride 1).
struct ClassTally {
  int* votes;
  double* shares;
  size_t stride;
  int* count;             // trees added
  double* confidence;     // of the most confident tree (may be null)
  int* confident_class;   // its class (may be null)
};

// Adds one tree: its class `cls`, its class distribution `dist` (K values)
// and its confidence.
void tally_tree(const ClassTally& t, int K, int cls, const double* dist, double confidence);

// The class of a tally (-1 without trees): "vote": most votes, ties broken
// by the larger share sum, then by the first class; "prob": largest share
// sum, then the first class; "max_confidence": the most confident tree's.
int decide_class(Aggregation a, int K, const int* votes, const double* shares, size_t stride, int count,
                 int confident_class);

// An exact sum of doubles as a whole part plus a fraction counted in units
// of 2^-40 (each value is rounded to that grid: 1e-12 of the outcome's
// standard deviation). Adding is exact while the whole part stays below
// 2^53, so sums merge in any grouping; R adds two of them the same way
// (R/aggregation.R).
constexpr double kFractionGrid = 1099511627776.0;  // 2^40
struct ExactSum {
  double whole = 0.0;
  double fraction = 0.0;  // in [0, 2^40)
  void add(double v) {
    double w = std::floor(v);
    double f = std::nearbyint((v - w) * kFractionGrid);
    add_parts(w, f);
  }
  void add_parts(double w, double f) {
    whole += w;
    fraction += f;
    if (fraction >= kFractionGrid) {
      fraction -= kFractionGrid;
      whole += 1.0;
    }
  }
  double value() const { return whole + fraction / kFractionGrid; }
};

}  // namespace svf
#endif

// Factor columns coded per tree (factor_coding = "order"). Such a column
// holds level codes 1..L; each tree derives a value per level from its
// in-bag rows alone (fit_level_values()), reads the column through those
// values while it grows (CodedView) and keeps them (Tree::factor_int,
// factor_real), so prediction routes rows the same way (level_value()). An
// out-of-bag row's label never shapes the values its tree reads.
//
// The values: two classes, the level's share of the second class; more
// classes, its class shares projected on their first principal component
// (levels weighted by their rows, the sign making the largest entry
// positive); numbers, its mean outcome; event times, the mean martingale
// score of its rows under the Nelson-Aalen hazard of the tree's in-bag rows
// (one hazard per tree, not per node: Outcome::level_values()). Each is shrunk toward the tree's
// overall value, (sum + m * overall) / (rows + m) with m = kLevelShrink,
// and a level with fewer than kLevelMinRows distinct in-bag rows (repeats
// of a row count once here) takes the overall value: a cut must not
// isolate levels by the labels of one or two rows. Rare levels weigh
// nothing in the principal component.
// A code outside 1..L (a level without training rows, NaN) reads as the
// overall value. Layout: per factor column the pair (column, L) in
// factor_int and L + 1 values in factor_real, first the overall value.
#ifndef SVFOREST_LEVELVALUES_H
#define SVFOREST_LEVELVALUES_H

#include <cstddef>
#include <memory>
#include <vector>

#include "data/DataView.h"
#include "data/TrainingData.h"
#include "tree/Tree.h"

namespace svf {

constexpr double kLevelShrink = 5.0;
constexpr int kLevelMinRows = 5;

// The value of `raw` (a level code) in the factor whose values start at
// `values` (L + 1 of them).
inline double coded_level(const double* values, int levels, double raw) {
  const bool inside = raw >= 1.0 && raw <= static_cast<double>(levels);
  return values[inside ? static_cast<size_t>(raw) : 0];
}

// Column `col`'s value `raw` as tree `t` reads it.
inline double level_value(const TreeView& t, int col, double raw) {
  size_t offset = 0;
  for (size_t f = 0; f + 1 < t.n_factor_int; f += 2) {
    const int levels = t.factor_int[f + 1];
    if (t.factor_int[f] == col) return coded_level(t.factor_real + offset, levels, raw);
    offset += static_cast<size_t>(levels) + 1;
  }
  return raw;
}

// A row's p raw values rewritten as tree `t` reads them.
inline void code_row(const TreeView& t, double* row) {
  size_t offset = 0;
  for (size_t f = 0; f + 1 < t.n_factor_int; f += 2) {
    const int col = t.factor_int[f], levels = t.factor_int[f + 1];
    row[col] = coded_level(t.factor_real + offset, levels, row[col]);
    offset += static_cast<size_t>(levels) + 1;
  }
}

// The level values of tree `tree` from its in-bag rows (repeats count).
void fit_level_values(const TrainingData& data, const std::vector<int>& inbag, Tree& tree);

// The training data as a tree reads it: factor columns through its values.
class CodedView : public DataView {
 public:
  CodedView(const DataView& base, const Tree& tree);
  bool is_sparse() const override { return base_.is_sparse(); }
  double get(size_t row, size_t col) const override;
  void gather(size_t col, const int* rows, size_t m, double* out) const override;
  void column_entries(size_t col, std::vector<int>& rows, std::vector<double>& values) const override;

 private:
  const DataView& base_;
  const Tree& tree_;
  std::vector<int> offset_;  // per column: where its values start, -1 if not a factor
  std::vector<int> levels_;
};

// A tree's level values and the data as that tree reads them.
struct TreeCoding {
  Tree levels;  // factor_int and factor_real only
  std::unique_ptr<CodedView> view;
  TrainingData data;
};

// `data` as the tree drawing `inbag` reads it: `data` itself when it has
// no factor columns, else coding.data (which points into `coding`).
const TrainingData& coded_for_tree(const TrainingData& data, const std::vector<int>& inbag, TreeCoding& coding);

// The engine's scaling of factor columns: their values are shares or
// outcome means already (factor 1); parts that read scaled rows, built once
// from the codes, must not read them (factor 0).
void scale_factor_columns(TrainingData& data, bool scaled_rows_used);

}  // namespace svf
#endif

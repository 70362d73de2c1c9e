#include "LevelValues.h"

#include "outcome/Outcome.h"

#include <Eigen/Dense>
#include <cmath>

namespace svf {

namespace {

// Level values from per-level sums (`sums`, L x width, the level's in-bag
// rows in `rows`, 0 for a rare level) and the overall means `overall`:
// each level's shrunk mean of the sums, rare levels the overall mean.
Eigen::MatrixXd shrunk_means(const Eigen::MatrixXd& sums, const std::vector<double>& rows,
                             const Eigen::RowVectorXd& overall) {
  Eigen::MatrixXd means(sums.rows(), sums.cols());
  for (Eigen::Index k = 0; k < sums.rows(); ++k) {
    if (rows[k] == 0.0) means.row(k) = overall;
    else means.row(k) = (sums.row(k) + kLevelShrink * overall) / (rows[k] + kLevelShrink);
  }
  return means;
}

// The first principal component of the rows of `shares` weighted by
// `rows`, its largest entry positive (a unit vector; the first axis when
// the levels do not differ).
Eigen::VectorXd first_component(const Eigen::MatrixXd& shares, const std::vector<double>& rows) {
  const Eigen::Index K = shares.cols();
  Eigen::VectorXd w = Eigen::Map<const Eigen::VectorXd>(rows.data(), rows.size());
  const double total = w.sum();
  Eigen::VectorXd direction = Eigen::VectorXd::Unit(K, 0);
  if (!(total > 0)) return direction;
  const Eigen::RowVectorXd mean = (w.transpose() * shares) / total;
  const Eigen::MatrixXd centred = shares.rowwise() - mean;
  const Eigen::MatrixXd cov = centred.transpose() * w.asDiagonal() * centred / total;
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(cov);
  if (eig.info() != Eigen::Success || !(eig.eigenvalues()(K - 1) > 0)) return direction;
  direction = eig.eigenvectors().col(K - 1);
  Eigen::Index big;
  direction.cwiseAbs().maxCoeff(&big);
  if (direction(big) < 0) direction = -direction;
  return direction;
}

// One factor column's L + 1 values (the overall value first) in `out`;
// `first` marks each row's first place in `inbag` (a level's distinct rows
// decide whether it is rare; repeats weigh its mean).
void column_values(const TrainingData& data, const std::vector<int>& inbag, const std::vector<char>& first,
                   const std::vector<double>& row_value, const std::vector<int>& row_slot, int K, size_t col,
                   int levels, std::vector<double>& out) {
  Eigen::MatrixXd sums = Eigen::MatrixXd::Zero(levels, K);
  std::vector<double> rows(levels, 0.0), distinct(levels, 0.0);
  Eigen::RowVectorXd total = Eigen::RowVectorXd::Zero(K);
  for (size_t i = 0; i < inbag.size(); ++i) {
    const int r = inbag[i];
    const double code = data.x->value(r, col);
    const int k = code >= 1.0 && code <= levels ? static_cast<int>(code) - 1 : -1;
    const double value = row_value[i];
    const int slot = row_slot[i];
    total(slot) += value;
    if (k < 0) continue;
    sums(k, slot) += value;
    rows[k] += 1.0;
    distinct[k] += first[i];
  }
  const Eigen::RowVectorXd overall = total / std::max<double>(1.0, static_cast<double>(inbag.size()));
  for (int k = 0; k < levels; ++k)
    if (distinct[k] < kLevelMinRows) rows[k] = 0.0;  // rare: the overall value
  const Eigen::MatrixXd means = shrunk_means(sums, rows, overall);
  Eigen::VectorXd direction = Eigen::VectorXd::Unit(K, K == 2 ? 1 : 0);
  if (K > 2) {
    std::vector<double> weight(rows);
    direction = first_component(means, weight);
  }
  out.push_back(overall.dot(direction.transpose()));
  const Eigen::VectorXd values = means * direction;
  for (int k = 0; k < levels; ++k) out.push_back(values(k));
}

}  // namespace

void fit_level_values(const TrainingData& data, const std::vector<int>& inbag, Tree& tree) {
  tree.factor_int.clear();
  tree.factor_real.clear();
  std::vector<char> seen(data.x->n_rows(), 0), first(inbag.size(), 0);
  for (size_t i = 0; i < inbag.size(); ++i) {
    first[i] = !seen[inbag[i]];
    seen[inbag[i]] = 1;
  }
  // what each in-bag row adds to its level (Outcome::level_values())
  const Outcome& outcome = outcome_of(data);
  std::vector<double> row_value;
  std::vector<int> row_slot;
  outcome.level_values(data, inbag, row_value, row_slot);
  const int K = outcome.level_slots(data);
  for (size_t f = 0; f < data.factor_cols.size(); ++f) {
    tree.factor_int.push_back(data.factor_cols[f]);
    tree.factor_int.push_back(data.factor_levels[f]);
    column_values(data, inbag, first, row_value, row_slot, K, data.factor_cols[f], data.factor_levels[f],
                  tree.factor_real);
  }
}

CodedView::CodedView(const DataView& base, const Tree& tree)
    : DataView(base.n_rows(), base.n_cols()), base_(base), tree_(tree), offset_(base.n_cols(), -1),
      levels_(base.n_cols(), 0) {
  int offset = 0;
  for (size_t f = 0; f + 1 < tree.factor_int.size(); f += 2) {
    offset_[tree.factor_int[f]] = offset;
    levels_[tree.factor_int[f]] = tree.factor_int[f + 1];
    offset += tree.factor_int[f + 1] + 1;
  }
  // the base's contiguous columns, but for the factor columns (read through their level values)
  bool any = false;
  contiguous_.assign(base.n_cols(), nullptr);
  for (size_t col = 0; col < base.n_cols(); ++col) {
    if (offset_[col] >= 0) continue;
    contiguous_[col] = base.contiguous_column(col);
    any = any || contiguous_[col] != nullptr;
  }
  if (!any) contiguous_.clear();
}

double CodedView::get(size_t row, size_t col) const {
  const double raw = base_.value(row, col);
  if (offset_[col] < 0) return raw;
  return coded_level(tree_.factor_real.data() + offset_[col], levels_[col], raw);
}

void CodedView::gather(size_t col, const int* rows, size_t m, double* out) const {
  base_.gather(col, rows, m, out);
  if (offset_[col] < 0) return;
  const double* values = tree_.factor_real.data() + offset_[col];
  for (size_t k = 0; k < m; ++k) out[k] = coded_level(values, levels_[col], out[k]);
}

void CodedView::column_entries(size_t col, std::vector<int>& rows, std::vector<double>& values) const {
  base_.column_entries(col, rows, values);
  if (offset_[col] < 0) return;
  const double* coded = tree_.factor_real.data() + offset_[col];
  for (double& v : values) v = coded_level(coded, levels_[col], v);
}

const TrainingData& coded_for_tree(const TrainingData& data, const std::vector<int>& inbag, TreeCoding& coding) {
  if (data.factor_cols.empty()) return data;
  fit_level_values(data, inbag, coding.levels);
  coding.view.reset(new CodedView(*data.x, coding.levels));
  coding.data = data;
  coding.data.x = coding.view.get();
  return coding.data;
}

void scale_factor_columns(TrainingData& data, bool scaled_rows_used) {
  for (int col : data.factor_cols) {
    data.scaling.center[col] = 0.0;
    data.scaling.factor[col] = scaled_rows_used ? 0.0 : 1.0;
  }
}

}  // namespace svf

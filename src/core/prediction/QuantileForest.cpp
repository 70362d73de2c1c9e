#include "QuantileForest.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace svf {

namespace {

// Sorts one row's (rank, weight) entries by rank, adding up those of a rank.
// Ordering through a table of all ranks beats sorting when the training rows
// are few next to the row's leaf entries: weights add up by rank, and a bit
// per rank marks those present, read back in rank order a 64-rank word at a
// time. acc and present are the caller's scratch (all zero between calls).
void order_weights(std::vector<std::pair<int, double>>& w, int n, std::vector<double>& acc,
                   std::vector<uint64_t>& present) {
  if (static_cast<size_t>(n) > 8 * w.size()) {
    std::sort(w.begin(), w.end());
    return;
  }
  if (acc.empty()) {
    acc.assign(n, 0.0);
    present.assign((static_cast<size_t>(n) + 63) / 64, 0);
  }
  for (const auto& e : w) {
    acc[e.first] += e.second;
    present[static_cast<size_t>(e.first) >> 6] |= uint64_t(1) << (e.first & 63);
  }
  w.clear();
  for (size_t word = 0; word < present.size(); ++word) {
    for (uint64_t bits = present[word]; bits != 0; bits &= bits - 1) {
      const int r = static_cast<int>(word * 64 + static_cast<size_t>(__builtin_ctzll(bits)));
      if (acc[r] != 0) w.emplace_back(r, acc[r]);
      acc[r] = 0;
    }
    present[word] = 0;
  }
}

}  // namespace

QuantileForest::QuantileForest(const int* train_leaves, std::vector<double> y, size_t ntree, double smooth)
    : train_leaves_(train_leaves), smooth_(smooth), slots_(ntree), offsets_(ntree), members_(ntree) {
  if (y.empty()) throw std::invalid_argument("a quantile forest needs training rows");
  rank_outcomes(y);
  index_leaves(train_leaves, nullptr, 0);
}

QuantileForest::QuantileForest(const int* train_leaves, std::vector<double> y, size_t ntree, double smooth,
                               const int* new_leaves, size_t m)
    : train_leaves_(nullptr), smooth_(smooth), slots_(ntree), offsets_(ntree), members_(ntree), new_leaves_(new_leaves),
      new_m_(m) {
  if (y.empty()) throw std::invalid_argument("a quantile forest needs training rows");
  rank_outcomes(y);
  index_leaves(train_leaves, new_leaves, m);
}

QuantileQuery QuantileForest::new_rows_query() const {
  QuantileQuery q;
  q.leaves = new_leaves_;
  q.m = new_m_;
  return q;
}

void QuantileForest::rank_outcomes(const std::vector<double>& y) {
  const int n = static_cast<int>(y.size());
  row_of_rank_.resize(n);
  for (int i = 0; i < n; ++i) row_of_rank_[i] = i;
  std::stable_sort(row_of_rank_.begin(), row_of_rank_.end(), [&](int a, int b) { return y[a] < y[b]; });
  rank_of_row_.resize(n);
  sorted_y_.resize(n);
  for (int r = 0; r < n; ++r) {
    rank_of_row_[row_of_rank_[r]] = r;
    sorted_y_[r] = y[row_of_rank_[r]];
  }
  lo_.resize(n);
  hi_.resize(n);
  for (int r = 0; r < n;) {
    int e = r;
    while (e < n && sorted_y_[e] == sorted_y_[r]) ++e;
    const double below = r > 0 ? sorted_y_[r] - smooth_ * (sorted_y_[r] - sorted_y_[r - 1]) : sorted_y_[r];
    const double above = e < n ? sorted_y_[r] + smooth_ * (sorted_y_[e] - sorted_y_[r]) : sorted_y_[r];
    for (int k = r; k < e; ++k) {
      lo_[k] = below;
      hi_[k] = above;
    }
    r = e;
  }
}

// Per tree, the training rows grouped by leaf (members_, in outcome order
// within a leaf) and where each leaf's group starts (offsets_, by the leaf's
// slot: LeafSlots): of every leaf a training row reaches, or, given new
// rows' leaves, of the leaves they reach alone.
void QuantileForest::index_leaves(const int* train_leaves, const int* new_leaves, size_t m) {
  const int n = static_cast<int>(sorted_y_.size());
  for (size_t t = 0; t < offsets_.size(); ++t) {
    const int* col = train_leaves + t * static_cast<size_t>(n);
    int max_leaf = 0;
    for (int i = 0; i < n; ++i) {
      // a tree grown on n rows has fewer than 2n nodes; a damaged id must
      // not size the index below
      if (col[i] < 0 || col[i] > 2 * n)
        throw std::invalid_argument("the quantile forest's leaf id " + std::to_string(col[i]) + " of training row " +
                                    std::to_string(i + 1) + " in tree " + std::to_string(t + 1) +
                                    " is out of range (0 to " + std::to_string(2 * n) + ")");
      max_leaf = std::max(max_leaf, col[i]);
    }
    LeafSlots& slots = slots_[t];
    if (new_leaves) {
      slots.mark(new_leaves + t * m, m, max_leaf);
    } else {
      slots.mark(col, static_cast<size_t>(n), max_leaf);
    }
    std::vector<int>& off = offsets_[t];
    off.assign(slots.size() + 1, 0);
    for (int i = 0; i < n; ++i) {
      const int s = slots.of(col[i]);
      if (s >= 0) ++off[s + 1];
    }
    for (int l = 0; l < slots.size(); ++l) off[l + 1] += off[l];
    std::vector<int> fill(off.begin(), off.end() - 1);
    std::vector<int>& mem = members_[t];
    mem.resize(off.back());
    // visiting rows in outcome order keeps each leaf's list sorted
    for (int r = 0; r < n; ++r) {
      const int s = slots.of(col[row_of_rank_[r]]);
      if (s >= 0) mem[fill[s]++] = r;
    }
  }
}

void LeafSlots::mark(const int* leaves, size_t count, int max_leaf) {
  bits_.assign(static_cast<size_t>(max_leaf) / 64 + 1, 0);
  for (size_t i = 0; i < count; ++i)
    if (leaves[i] >= 0 && leaves[i] <= max_leaf) bits_[leaves[i] >> 6] |= uint64_t(1) << (leaves[i] & 63);
  before_.resize(bits_.size());
  int total = 0;
  for (size_t w = 0; w < bits_.size(); ++w) {
    before_[w] = total;
    total += __builtin_popcountll(bits_[w]);
  }
  size_ = total;
}

// The quantiles at increasing levels `tau` of one row's weighted outcome
// ranks `w` (sorted by rank; weights summing to `used`), written to out[j * m].
void QuantileForest::row_quantiles(const std::vector<std::pair<int, double>>& w, int used,
                                   const std::vector<double>& tau, double* out, size_t m) const {
  double cum = 0;
  size_t k = 0;
  // the group starting at k (entries k..e - 1 of one outcome value, weight
  // `mass`), summed once for all the levels it holds
  size_t e = 0;
  double mass = 0;
  bool group = false;
  for (size_t j = 0; j < tau.size(); ++j) {
    // the smallest outcome whose cumulative weight reaches tau
    const double target = tau[j] * used * (1 - 1e-12);
    double value;
    if (smooth_ <= 0) {
      while (k < w.size() && cum + w[k].second < target) cum += w[k++].second;
      value = sorted_y_[w[std::min(k, w.size() - 1)].first];
    } else {
      // the group of entries with the same outcome value that holds target
      for (;;) {
        if (!group) {
          e = k;
          mass = 0;
          while (e < w.size() && sorted_y_[w[e].first] == sorted_y_[w[k].first]) mass += w[e++].second;
          group = true;
        }
        if (cum + mass >= target || e >= w.size()) {
          const int r = w[k].first;
          value = lo_[r] + (hi_[r] - lo_[r]) * std::min(1.0, std::max(0.0, (target - cum) / mass));
          break;
        }
        cum += mass;
        k = e;
        group = false;
      }
    }
    out[j * m] = value;
  }
}

// Row i's (outcome rank, weight) entries from the trees the query gives it,
// sorted by rank (acc, present: order_weights()'s scratch); returns the
// trees used (0: none).
int QuantileForest::row_weights(const QuantileQuery& q, size_t i, std::vector<std::pair<int, double>>& w,
                                std::vector<double>& acc, std::vector<uint64_t>& present) const {
  w.clear();
  int used = 0;
  visit_leaves(q, i, [&](size_t t, int start, int size) {
    ++used;
    const double share = 1.0 / size;
    const int end = start + size + (q.self ? 1 : 0);
    for (int e = start; e < end; ++e) {
      const int r = members_[t][e];
      if (q.self && r == rank_of_row_[i]) continue;
      w.emplace_back(r, share);
    }
    return true;
  });
  if (used > 0) order_weights(w, static_cast<int>(sorted_y_.size()), acc, present);
  return used;
}

bool QuantileForest::usable(const QuantileQuery& q, size_t i) const {
  bool any = false;
  visit_leaves(q, i, [&](size_t, int, int) {
    any = true;
    return false;
  });
  return any;
}

std::vector<double> QuantileForest::quantiles(const QuantileQuery& q, const std::vector<double>& tau,
                                              TaskRunner& runner) const {
  std::vector<int> rows(q.m);
  for (size_t i = 0; i < q.m; ++i) rows[i] = static_cast<int>(i);
  return quantiles_of_rows(q, rows, tau, runner);
}

std::vector<double> QuantileForest::quantiles_of_rows(const QuantileQuery& q, const std::vector<int>& rows,
                                                      const std::vector<double>& tau, TaskRunner& runner) const {
  const size_t m = rows.size();
  std::vector<double> out(m * tau.size(), NAN);
  const size_t block = 256;
  runner.run((m + block - 1) / block, [&](size_t b) {
    std::vector<std::pair<int, double>> w;
    std::vector<double> acc;
    std::vector<uint64_t> present;
    for (size_t j = b * block; j < std::min(m, (b + 1) * block); ++j) {
      const int used = row_weights(q, static_cast<size_t>(rows[j]), w, acc, present);
      if (used > 0) row_quantiles(w, used, tau, &out[j], m);
    }
  });
  return out;
}

void QuantileForest::quantiles_of_rows_halves(const QuantileQuery& q, const std::vector<char>& keep,
                                              const std::vector<int>& rows, const std::vector<double>& tau,
                                              TaskRunner& runner, std::vector<double> out[3]) const {
  if (q.keep || keep.size() != offsets_.size()) throw std::invalid_argument("halves need a flag per tree");
  const size_t m = rows.size();
  const int n = static_cast<int>(sorted_y_.size());
  for (int c = 0; c < 3; ++c) out[c].assign(m * tau.size(), NAN);
  const size_t block = 256;
  runner.run((m + block - 1) / block, [&](size_t b) {
    std::vector<std::tuple<int, double, int>> e;  // (rank, weight, half 1 or 2), in tree order
    std::vector<std::pair<int, double>> w;
    std::vector<double> acc;
    std::vector<uint64_t> present;
    for (size_t j = b * block; j < std::min(m, (b + 1) * block); ++j) {
      const size_t i = static_cast<size_t>(rows[j]);
      e.clear();
      int used[3] = {0, 0, 0};
      visit_leaves(q, i, [&](size_t t, int start, int size) {
        const int half = keep[t] == 1 ? 1 : keep[t] == 0 ? 2 : 0;  // 0: in neither half
        ++used[0];
        if (half > 0) ++used[half];
        const double share = 1.0 / size;
        const int end = start + size + (q.self ? 1 : 0);
        for (int k = start; k < end; ++k) {
          const int r = members_[t][k];
          if (q.self && r == rank_of_row_[i]) continue;
          e.emplace_back(r, share, half);
        }
        return true;
      });
      // order_weights() sorts the whole forest's entries here, and then each
      // half's too (fewer entries): one sort, its halves read off in order
      // (entries of equal rank and weight are alike), gives each the same
      const bool sorted = static_cast<size_t>(n) > 8 * e.size();
      if (sorted) std::sort(e.begin(), e.end());
      for (int c = 0; c < 3; ++c) {
        if (used[c] == 0) continue;
        w.clear();
        for (const auto& x : e)
          if (c == 0 || std::get<2>(x) == c) w.emplace_back(std::get<0>(x), std::get<1>(x));
        if (!sorted) order_weights(w, n, acc, present);
        row_quantiles(w, used[c], tau, &out[c][j], m);
      }
    }
  });
}

QuantileQuery QuantileForest::out_of_bag_query(const std::vector<std::vector<int>>& oob_rows) const {
  std::vector<const int*> rows;
  std::vector<size_t> counts;
  for (const std::vector<int>& r : oob_rows) {
    rows.push_back(r.data());
    counts.push_back(r.size());
  }
  return out_of_bag_query(rows, counts, 0);
}

QuantileQuery QuantileForest::out_of_bag_query(const std::vector<const int*>& rows, const std::vector<size_t>& counts,
                                               int base) const {
  const size_t n = sorted_y_.size();
  if (rows.size() != offsets_.size() || counts.size() != rows.size())
    throw std::invalid_argument("one list of out-of-bag rows per tree expected");
  if (!train_leaves_) throw std::logic_error("out-of-bag queries need the index of every leaf");
  QuantileQuery q;
  q.leaves = train_leaves_;
  q.m = n;
  q.self = true;
  // per row, a bit for each tree it is out of bag in
  q.bit_words = (rows.size() + 63) / 64;
  auto bits = std::make_shared<std::vector<uint64_t>>(n * q.bit_words, 0);
  for (size_t t = 0; t < rows.size(); ++t) {
    for (size_t k = 0; k < counts[t]; ++k) {
      const long r = static_cast<long>(rows[t][k]) - base;
      if (r < 0 || static_cast<size_t>(r) >= n)
        throw std::invalid_argument("out-of-bag rows must be between 1 and the number of rows");
      (*bits)[static_cast<size_t>(r) * q.bit_words + (t >> 6)] |= uint64_t(1) << (t & 63);
    }
  }
  q.tree_bits = std::move(bits);
  return q;
}

}  // namespace svf

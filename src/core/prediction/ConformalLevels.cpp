#include "ConformalLevels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <stdexcept>

namespace svf {

namespace {

const size_t kChunkRows = 1024;    // rows scored at once (3 x levels x rows scores, twice)

size_t bin_of(const std::vector<double>& edges, double v) {
  return static_cast<size_t>(std::lower_bound(edges.begin(), edges.end(), v) - edges.begin());
}

// bin_of() over one level's edges through a table of evenly spaced buckets
// between the edges at 1/64 and 63/64 of them (two buckets an edge; the
// tails' far edges would crowd the rest into a few buckets): a score there
// is searched for among its bucket's edges alone, and the answer checked
// against the edges either side, falling back to the whole search when the
// bucket's arithmetic rounded it astray (and for the tails); always
// bin_of()'s bin.
class EdgeLookup {
 public:
  void build(const std::vector<double>& edges) {
    start_.clear();
    const size_t m = edges.size();
    if (m < 64) return;
    origin_ = edges[m / 64];
    top_ = edges[m - 1 - m / 64];
    const size_t buckets = 2 * m;
    scale_ = static_cast<double>(buckets) / (top_ - origin_);
    if (!(top_ > origin_) || !std::isfinite(scale_)) return;
    start_.resize(buckets + 1);
    for (size_t b = 0; b <= buckets; ++b) start_[b] = static_cast<uint32_t>(bin_of(edges, origin_ + b / scale_));
  }
  // `e`: the edges it was built on
  size_t find(const std::vector<double>& e, double v) const {
    if (start_.empty() || !(v > origin_ && v <= top_)) return bin_of(e, v);
    const size_t b = std::min(start_.size() - 2, static_cast<size_t>((v - origin_) * scale_));
    const size_t lo = start_[b], hi = start_[b + 1];
    const size_t at = static_cast<size_t>(std::lower_bound(e.begin() + lo, e.begin() + hi, v) - e.begin());
    if ((at > 0 && !(e[at - 1] < v)) || (at < e.size() && !(e[at] >= v))) return bin_of(e, v);
    return at;
  }

 private:
  std::vector<uint32_t> start_;
  double origin_ = 0, top_ = 0, scale_ = 0;
};

// One level's bins: bin b holds the scores v with edges[b - 1] < v <=
// edges[b] (the first from -Inf, the last to +Inf); per kind of score (all,
// even, odd) the count per bin, and the scores of bins lo..hi.
struct LevelBins {
  std::vector<double> edges;
  EdgeLookup lookup;
  std::vector<int> count[3];
  size_t lo = 1, hi = 0;
  std::vector<double> kept[3];
  bool resolved = false;
  double value = NAN;
};

// The first index into sorted `a` at which (1 + weight) A - weight (E + O) / 2
// reaches target (A, E, O: base counts plus the sorted values of a, e, o at
// or below a[i]), or a.size() when none does; the share is computed as
// the full sort's scan computes it.
size_t first_crossing(const std::vector<double>& a, const std::vector<double>& e, const std::vector<double>& o,
                      const size_t base[3], double weight, double target) {
  size_t ca = 0, ce = 0, co = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    while (ca < a.size() && a[ca] <= a[i]) ++ca;
    while (ce < e.size() && e[ce] <= a[i]) ++ce;
    while (co < o.size() && o[co] <= a[i]) ++co;
    const double share = (1 + weight) * static_cast<double>(base[0] + ca) -
                         weight * static_cast<double>(base[1] + ce + base[2] + co) / 2;
    if (share >= target) return i;
  }
  return a.size();
}

class Streamer {
 public:
  Streamer(const ConformalScores& s, const std::vector<double>& tau, TaskRunner& runner)
      : s_(s), tau_(tau), runner_(runner), kinds_(s.even && s.odd ? 3 : 1), halves_(kinds_ == 3 && halves_of_all(s)) {}

  size_t kinds() const { return kinds_; }

  // Scores of rows (kind-major: kind, level, row) for each chunk of `rows`.
  void each_chunk(const std::vector<int>& rows, const std::function<void(const std::vector<double>&, size_t)>& use) {
    const QuantileQuery* queries[3] = {s_.all, s_.even, s_.odd};
    for (size_t start = 0; start < rows.size(); start += kChunkRows) {
      const std::vector<int> chunk(rows.begin() + start, rows.begin() + std::min(rows.size(), start + kChunkRows));
      const size_t m = chunk.size(), levels = tau_.size();
      std::vector<double> scores(kinds_ * levels * m), halves[3];
      if (halves_) s_.forest->quantiles_of_rows_halves(*s_.all, *s_.even->keep, chunk, tau_, runner_, halves);
      for (size_t c = 0; c < kinds_; ++c) {
        const std::vector<double> q = halves_ ? std::move(halves[c])
                                              : s_.forest->quantiles_of_rows(*queries[c], chunk, tau_, runner_);
        for (size_t j = 0; j < levels; ++j) {
          for (size_t i = 0; i < m; ++i) {
            const double v = q[j * m + i];
            if (std::isnan(v)) throw std::invalid_argument("conformal scores have missing values");
            scores[(c * levels + j) * m + i] = s_.y[chunk[i]] - v;
          }
        }
      }
      use(scores, m);
    }
  }

 private:
  const ConformalScores& s_;
  const std::vector<double>& tau_;
  TaskRunner& runner_;
  size_t kinds_;
  bool halves_;  // even and odd: the trees of `all` flagged 1 and 0 (one gathering for the three)

  static bool halves_of_all(const ConformalScores& s) {
    const QuantileQuery &a = *s.all, &e = *s.even, &o = *s.odd;
    auto same = [&](const QuantileQuery& h) {
      return h.leaves == a.leaves && h.m == a.m && h.self == a.self && h.tree_bits == a.tree_bits;
    };
    return !a.keep && e.keep && e.keep == o.keep && e.keep_value == 1 && o.keep_value == 0 && same(e) && same(o);
  }
};

// Bins of each level from the sample's scores, and the bins around the
// sample's estimate of the crossing to keep in the first full pass. A
// sample of every row resolves each level from its own sorted scores (the
// full sort itself), and no full pass is needed.
void place_bins(Streamer& st, const ConformalScores& s, const std::vector<double>& k, double weight,
                std::vector<LevelBins>& bins, TaskRunner& runner) {
  const std::vector<int>& rows = s.rows;
  const size_t most = std::max<size_t>(1, s.sample_rows);
  const size_t stride = std::max<size_t>(1, (rows.size() + most - 1) / most);
  std::vector<int> sample;
  for (size_t i = 0; i < rows.size(); i += stride) sample.push_back(rows[i]);
  const size_t levels = bins.size(), ns = sample.size(), kinds = st.kinds();
  st.each_chunk(sample, [&](const std::vector<double>& scores, size_t m) {
    runner.run(levels, [&](size_t j) {
      for (size_t c = 0; c < kinds; ++c) {
        std::vector<double>& v = bins[j].kept[c];
        v.insert(v.end(), scores.begin() + (c * levels + j) * m, scores.begin() + (c * levels + j + 1) * m);
      }
    });
  });
  const bool every_row = ns == rows.size();
  runner.run(levels, [&](size_t j) {
    LevelBins& b = bins[j];
    for (size_t c = 0; c < kinds; ++c) std::sort(b.kept[c].begin(), b.kept[c].end());
    if (every_row) {
      if (!b.resolved) {
        const size_t base[3] = {0, 0, 0};
        const size_t at = first_crossing(b.kept[0], b.kept[1], b.kept[2], base, weight, k[j] - 1e-9);
        b.value = at < ns ? b.kept[0][at] : NAN;
        b.resolved = true;
      }
      for (size_t c = 0; c < 3; ++c) std::vector<double>().swap(b.kept[c]);
      return;
    }
    b.edges = b.kept[0];
    b.edges.erase(std::unique(b.edges.begin(), b.edges.end()), b.edges.end());
    b.lookup.build(b.edges);
    const size_t base[3] = {0, 0, 0};
    const double ks = k[j] * static_cast<double>(ns) / static_cast<double>(rows.size());
    const size_t at = first_crossing(b.kept[0], b.kept[1], b.kept[2], base, weight, ks - 1e-9);
    const size_t centre = at < ns ? bin_of(b.edges, b.kept[0][at]) : b.edges.size();
    const double sd = std::sqrt(std::max(0.0, ks * (1 - ks / static_cast<double>(ns))));
    const size_t margin = static_cast<size_t>(s.bracket_sd * sd) + s.bracket_bins;
    b.lo = centre > margin ? centre - margin : 0;
    b.hi = std::min(b.edges.size(), centre + margin);
    for (size_t c = 0; c < 3; ++c) {
      b.kept[c].clear();
      b.count[c].assign(c < kinds ? b.edges.size() + 1 : 0, 0);
    }
  });
}

// From the counts, the bins that must hold the crossing: from the first
// bin where the share may reach the target (its all-scores counted, the
// halves' scores of earlier bins alone) to the first where it must (every
// score of the bin counted). Returns false when no bin may.
bool needed_bins(const LevelBins& b, size_t kinds, double weight, double target, size_t n, size_t& first,
                 size_t& last) {
  const size_t nb = b.edges.size() + 1;
  const double slack = 1e-7 * (1 + weight) * static_cast<double>(n);  // beyond rounding of the shares
  double acum = 0, hcum = 0, hcum_before = 0;
  bool found = false;
  last = nb - 1;
  for (size_t i = 0; i < nb; ++i) {
    acum += b.count[0][i];
    hcum_before = hcum;
    if (kinds == 3) hcum += b.count[1][i] + b.count[2][i];
    if (b.count[0][i] == 0) continue;
    if (!found && (1 + weight) * acum - weight * hcum_before / 2 >= target - slack) {
      found = true;
      first = i;
    }
    if (found && (1 + weight) * acum - weight * hcum / 2 >= target + slack) {
      last = i;
      break;
    }
  }
  return found;
}

// The crossing from the kept scores of bins lo..hi (which hold the needed
// bins): counts of the bins below lo as the base.
double resolve(LevelBins& b, size_t kinds, double weight, double target) {
  size_t base[3] = {0, 0, 0};
  for (size_t c = 0; c < kinds; ++c)
    for (size_t i = 0; i < b.lo; ++i) base[c] += static_cast<size_t>(b.count[c][i]);
  for (size_t c = 0; c < kinds; ++c) std::sort(b.kept[c].begin(), b.kept[c].end());
  const size_t at = first_crossing(b.kept[0], b.kept[1], b.kept[2], base, weight, target);
  return at < b.kept[0].size() ? b.kept[0][at] : NAN;
}

// One full pass: each level's counts (when `count`) and the scores of its
// bins lo..hi, for the levels not resolved.
void full_pass(Streamer& st, const std::vector<int>& rows, std::vector<LevelBins>& bins, bool count,
               TaskRunner& runner) {
  const size_t levels = bins.size(), kinds = st.kinds();
  st.each_chunk(rows, [&](const std::vector<double>& scores, size_t m) {
    runner.run(levels, [&](size_t j) {
      LevelBins& b = bins[j];
      if (b.resolved) return;
      for (size_t c = 0; c < kinds; ++c) {
        const double* v = &scores[(c * levels + j) * m];
        for (size_t i = 0; i < m; ++i) {
          const size_t bin = b.lookup.find(b.edges, v[i]);
          if (count) ++b.count[c][bin];
          if (bin >= b.lo && bin <= b.hi) b.kept[c].push_back(v[i]);
        }
      }
    });
  });
}

}  // namespace

std::vector<double> conformal_order_statistics(const ConformalScores& s, const std::vector<double>& tau,
                                               const std::vector<double>& k, double weight, TaskRunner& runner) {
  if (k.size() != tau.size()) throw std::invalid_argument("one rank per level expected");
  if (!(weight >= 0)) throw std::invalid_argument("the extrapolation weight must be at least 0");
  const size_t levels = tau.size(), n = s.rows.size();
  std::vector<double> out(levels, NAN);
  if (n == 0 || levels == 0) return out;
  Streamer st(s, tau, runner);
  std::vector<LevelBins> bins(levels);
  for (size_t j = 0; j < levels; ++j) bins[j].resolved = !(k[j] >= 1 && k[j] <= static_cast<double>(n));
  place_bins(st, s, k, weight, bins, runner);
  if (std::all_of(bins.begin(), bins.end(), [](const LevelBins& b) { return b.resolved; })) {
    for (size_t j = 0; j < levels; ++j) out[j] = bins[j].value;
    return out;
  }
  full_pass(st, s.rows, bins, true, runner);
  bool again = false;
  for (size_t j = 0; j < levels; ++j) {
    LevelBins& b = bins[j];
    if (b.resolved) continue;
    size_t first = 0, last = 0;
    if (!needed_bins(b, st.kinds(), weight, k[j] - 1e-9, n, first, last)) {
      b.resolved = true;  // the share never reaches k: NaN
    } else if (first >= b.lo && last <= b.hi) {
      b.value = resolve(b, st.kinds(), weight, k[j] - 1e-9);
      b.resolved = true;
    } else {
      b.lo = first;
      b.hi = last;
      for (size_t c = 0; c < 3; ++c) b.kept[c].clear();
      again = true;
    }
    if (b.resolved) for (size_t c = 0; c < 3; ++c) std::vector<double>().swap(b.kept[c]);
  }
  if (again) {
    full_pass(st, s.rows, bins, false, runner);
    for (size_t j = 0; j < levels; ++j)
      if (!bins[j].resolved) bins[j].value = resolve(bins[j], st.kinds(), weight, k[j] - 1e-9);
  }
  for (size_t j = 0; j < levels; ++j) out[j] = bins[j].value;
  return out;
}

}  // namespace svf

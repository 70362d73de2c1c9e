// A node's cut statistic as the split search (splitting/search/CutSearch.h)
// reads it: the search orders the node's rows along a predictor or
// projection, lets them join a left group in that order, and reads the
// statistic at the boundaries it may cut; the outcome unit says what a row
// adds and what a boundary's gain is, never which boundaries there are.
// Two kinds: additive statistics (class counts; sums), whose binned search
// sums each bin's rows once and lets whole bins join (a histogram), and the
// others (log-rank statistics: their variance is no sum over bins), which
// take the rows in bin order and are read at bin edges.
#ifndef SVFOREST_CUT_SCAN_H
#define SVFOREST_CUT_SCAN_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace svf {

class CutScan {
 public:
  virtual ~CutScan() {}
  // The left group empty again (a new predictor or projection).
  virtual void reset() = 0;
  // The node row at `position` joins the left group.
  virtual void add(int position) = 0;
  // The gain of the cut whose left group is the rows added so far (n_left of
  // the node's rows).
  virtual double gain(size_t n_left) const = 0;
  // The fewest rows a cut leaves on either side, given the splitter's
  // `min_leaf_size` (impurities of class counts and sums ignore it).
  virtual size_t min_leaf(size_t asked) const { return asked; }
  // Whether the node has any cut to score (survival: event times).
  virtual bool any_cut() const { return true; }

  // Additive statistics: whether the scan has a histogram; the sums of the
  // node's rows per bin (code[i]: node row i's bin, of `bins`), the left
  // group left empty; bin b's rows join the left group.
  virtual bool additive() const { return false; }
  virtual void add_histogram(const uint16_t* /*code*/, size_t /*bins*/) {}
  virtual void add_bin(size_t /*b*/) {}

  // The gains of the left groups of the first at[j] rows of `positions`
  // (node positions in the search's order), j < n_at, at[] increasing, into
  // out[j]: the rows join in that order, as by add(), and gain(at[j]) is
  // read. The search chose the boundaries; one call, not one per row.
  virtual void gains(const int* positions, const size_t* at, size_t n_at, double* out) = 0;
};

// A scan whose gains() calls its own add() and gain() directly (no virtual
// call per row): class S : public CutScanOf<S>.
template <class Scan>
class CutScanOf : public CutScan {
 public:
  void gains(const int* positions, const size_t* at, size_t n_at, double* out) override {
    Scan& self = static_cast<Scan&>(*this);
    size_t k = 0;
    for (size_t j = 0; j < n_at; ++j) {
      for (; k < at[j]; ++k) self.Scan::add(positions[k]);
      out[j] = self.Scan::gain(at[j]);
    }
  }
};

// Adds the first n rows marked in `left` (node positions) to `scan`, to read
// the statistic of one given two-group split; returns how many were added.
template <class Scan>
size_t add_marked_rows(Scan& scan, const std::vector<char>& left, size_t n) {
  size_t n_left = 0;
  for (size_t i = 0; i < n; ++i)
    if (left[i]) {
      scan.add(static_cast<int>(i));
      ++n_left;
    }
  return n_left;
}

}  // namespace svf
#endif

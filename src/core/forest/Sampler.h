// Which training rows a tree sees (in-bag, with repeats for the bootstrap)
// and which it leaves out (out-of-bag).
#ifndef SVFOREST_SAMPLER_H
#define SVFOREST_SAMPLER_H

#include <string>
#include <vector>
#include "common/Random.h"

namespace svf {

enum class SamplerType { All = 0, Bootstrap = 1, Subsample = 2 };

// The sampler of a name ("all", "bootstrap", "subsample"); another name
// throws std::invalid_argument.
SamplerType sampler_named(const std::string& name);

struct Sample {
  std::vector<int> inbag;
  std::vector<int> oob;
};

// fraction: share of n drawn (with replacement for Bootstrap, without for
// Subsample). weights (n positive case weights, or nullptr): Bootstrap draws
// each row with probability proportional to its weight (as ranger); All
// repeats every row about weight / smallest weight times (weighted_copies(),
// which draws nothing from rng), and so does Subsample with the rows it
// drew as without weights (sampling without replacement by weight could not
// make a row count more than once, so heavy rows would barely count more).
// With weights_draw_rows (an outcome's choice, Outcome::weights_draw_rows())
// Subsample instead draws distinct rows in proportion to their weights
// (draw_weighted_subsample()). Without weights the draws are those of the
// unweighted sampler.
Sample draw_sample(SamplerType type, size_t n, double fraction, Rng& rng, const double* weights = nullptr,
                   bool weights_draw_rows = false);

// ceil(fraction x n) distinct rows drawn without replacement, each in
// proportion to its weight (> 0), increasing; the others out of bag. Rows
// are not repeated, so a node's size counts distinct rows (as ranger's
// case.weights reweight its draw without replacement).
Sample draw_weighted_subsample(size_t n, double fraction, Rng& rng, const double* weights);

// Moves round(share x oob.size()) of the out-of-bag rows `oob`, drawn at
// random from rng, into the returned "choosing" rows; `oob` keeps the rest,
// the "scoring" rows. Both stay in increasing order when `oob` was. A
// structure chosen on the choosing rows is then scored honestly on the
// others (Forest.cpp). share <= 0 draws nothing and moves nothing.
std::vector<int> take_choosing_rows(std::vector<int>& oob, double share, Rng& rng);

// rows, each repeated about weight[row] / (smallest weight) times by
// systematic sampling with a fixed offset (deterministic; the copies of a
// row differ from that by less than one), at most `max_factor` x
// rows.size() copies in all (the smallest weights may then get none).
// Integer weights whose smallest is 1 give exactly `weight` copies (below
// the cap).
std::vector<int> weighted_copies(const std::vector<int>& rows, const double* weights, double max_factor = 10.0);

}  // namespace svf
#endif

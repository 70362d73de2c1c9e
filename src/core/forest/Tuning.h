// The tuning stage: before the common trainer (Forest.h) fits the final
// forest, a fit may choose some of its parameters on validation rows. Today
// one strategy exists: TD-SVM's search (TdSvm.h) of the ceiling size sigma of
// a deterministic splitter and of the leaf parameters (cost, gamma), asked
// for by the "cart" splitter when `sigma` is NA or the leaf grid has more
// than one point. Validation rows are the user's, or a stratified share
// (validation_fraction) held out of the training rows.
#ifndef SVFOREST_TUNING_H
#define SVFOREST_TUNING_H

#include <memory>
#include <string>
#include <vector>

#include "Forest.h"
#include "TdSvm.h"
#include "common/Params.h"

namespace svf {

struct TuningResult {
  bool tuned = false;
  // chosen values of numeric parameters, to override the fit's own
  std::vector<std::pair<std::string, double>> chosen;
  // the search: its evaluations and the candidates they name
  TdSearchResult search;
  std::vector<TdCandidate> candidates;
  // with user validation rows and one plain tree, the chosen tree with its
  // leaf models, so the final fit need not train them again
  bool has_forest = false;
  FittedForest forest;
};

// Whether the fit asks for a tuning stage.
bool wants_tuning(const Params& params);

// Runs it. `external`: user validation rows (null: hold out a share).
// data.scaled must be filled. Throws std::invalid_argument when the held-out
// or training part is empty.
TuningResult tune(const TrainingData& data, const Params& params, const ValidationSet* external,
                  TaskRunner& runner);

}  // namespace svf
#endif

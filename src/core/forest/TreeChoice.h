// Choosing between two structures grown on the same sample: a splitter may
// name a rival (Splitter::rival()); the forest then grows each tree with
// both and keeps the structure that predicts the tree's out-of-bag rows
// better, each leaf predicting from its in-bag rows (class frequencies or
// the mean, what constant leaves predict).
#ifndef SVFOREST_TREECHOICE_H
#define SVFOREST_TREECHOICE_H

#include <vector>

#include "TreeGrower.h"
#include "data/TrainingData.h"

namespace svf {

// Squared error summed over the out-of-bag rows: of the leaf's class
// frequencies against the row's class (the Brier score), or of the leaf's
// mean against its outcome.
double oob_structure_loss(const TrainingData& data, const GrownTree& grown, const std::vector<int>& oob);

}  // namespace svf
#endif

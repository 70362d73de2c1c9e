// Choosing between structures grown on the same sample: a splitter may
// name rivals (Splitter::rivals()); the forest then grows each tree with
// all and keeps the structure whose loss on the tree's choosing out-of-bag
// rows is lowest (Outcome::structure_loss()). For classes and numbers, each
// leaf predicts from its in-bag rows (class frequencies or the mean, what
// constant leaves predict) and the loss is the squared error below.
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

// Training row r's leaf in a grown structure (its values as `data` reads them).
int structure_leaf(const TrainingData& data, const Tree& tree, int r, std::vector<double>& scratch);

}  // namespace svf
#endif

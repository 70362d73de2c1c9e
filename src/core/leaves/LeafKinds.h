// The registry of leaf kinds: name (as R gives it) and code (as saved in a
// model) of every LeafModel. A new leaf kind is its files plus one line in
// LeafKinds.cpp.
#ifndef SVFOREST_LEAFKINDS_H
#define SVFOREST_LEAFKINDS_H

#include <memory>
#include <string>
#include <vector>

#include "LeafModel.h"

namespace svf {

// A leaf model built from its parameters; throws std::invalid_argument for
// an unknown name.
std::unique_ptr<LeafModel> make_leaf_model(const std::string& name, const Params& params);

// The model that predicts and checks leaves of a kind; nullptr when the code
// is unknown.
const LeafModel* leaf_model_of_kind(int kind);

// Names and codes of all leaf kinds.
std::vector<std::pair<std::string, int>> leaf_kind_names();

// Empty when every leaf of the (structurally valid) tree is a valid leaf of
// its kind; otherwise what is wrong.
std::string validate_leaves(const TreeView& t, const OutcomeShape& shape);

}  // namespace svf
#endif

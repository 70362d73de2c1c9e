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

// What R needs to know of a leaf kind: its name and code, the leaf part R
// names that writes it (its own name, or another part's: compact class
// counts are written by "constant"), whether it holds a fitted model and
// whether a linear one, and the outcomes it fits.
struct LeafKindInfo {
  std::string name;
  int kind;
  std::string part;
  bool holds_model, linear, classification, regression;
  bool chosen_by_name() const { return name == part; }
};
std::vector<LeafKindInfo> leaf_kinds();

// Empty when every leaf of the (structurally valid) tree is a valid leaf of
// its kind; otherwise what is wrong.
std::string validate_leaves(const TreeView& t, const OutcomeShape& shape);

}  // namespace svf
#endif

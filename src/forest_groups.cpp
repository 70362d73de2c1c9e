// A forest list's compact trees decoded a group at a time (CompactGroups,
// model_convert.h), for prediction of a forest too large to hold decoded.
#include <string>

#include "model_convert.h"

void CompactGroups::add(const svf::CompactTreeView& c, const svf::TreeView& view) {
  const size_t t = compact_.size();
  compact_.push_back(c);
  levels_.push_back(view);
  loaded_.push_back(1);
  if (t >= group_end(0)) release(t);
}

size_t CompactGroups::group_end(size_t first) const {
  size_t t = first, nodes = 0;
  while (t < compact_.size() && (t == first || nodes + compact_[t].n_nodes <= group_nodes_))
    nodes += static_cast<size_t>(compact_[t++].n_nodes);
  return t;
}

void CompactGroups::load(size_t first, size_t last) {
  for (size_t t = 0; t < compact_.size(); ++t)
    if (loaded_[t] && (t < first || t >= last)) release(t);
  for (size_t t = first; t < last && t < compact_.size(); ++t) {
    if (loaded_[t]) continue;
    svf::TreeView v = decode_compact(compact_[t], handle_.view.shape.p, "tree " + std::to_string(t + 1),
                                     handle_.storage[t], false);
    v.factor_int = levels_[t].factor_int;
    v.n_factor_int = levels_[t].n_factor_int;
    v.factor_real = levels_[t].factor_real;
    v.n_factor_real = levels_[t].n_factor_real;
    handle_.view.trees[t] = v;
    loaded_[t] = 1;
  }
}

void CompactGroups::release(size_t t) {
  if (compact_[t].n_nodes == 0) return;  // a plain tree's view points into R's list
  handle_.storage[t] = svf::Tree();
  handle_.view.trees[t] = svf::TreeView();
  loaded_[t] = 0;
}

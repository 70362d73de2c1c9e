// R entry points for what the engine's kinds know of themselves: the leaf
// and split kinds, the part names of the registries, and descriptions of
// payloads (R's tree accessors read payloads only through these).
#include <Rcpp.h>

#include "core/leaves/LeafKinds.h"
#include "core/splitting/Splitter.h"
#include "core/tree/SplitKinds.h"
#include "model_convert.h"

using Rcpp::List;
using Rcpp::Named;

// The leaf kinds: a data frame with name, code (as saved in models), part
// (the leaf part R names that writes the kind), holds_model, linear,
// classification and regression.
// [[Rcpp::export(.svf_leaf_kinds)]]
List svf_leaf_kinds() {
  const std::vector<svf::LeafKindInfo> kinds = svf::leaf_kinds();
  const size_t n = kinds.size();
  Rcpp::CharacterVector name(n);
  Rcpp::IntegerVector code(n);
  Rcpp::CharacterVector part(n);
  Rcpp::LogicalVector model(n), linear(n), classification(n), regression(n);
  for (size_t k = 0; k < n; ++k) {
    name[k] = kinds[k].name;
    code[k] = kinds[k].kind;
    part[k] = kinds[k].part;
    model[k] = kinds[k].holds_model;
    linear[k] = kinds[k].linear;
    classification[k] = kinds[k].classification;
    regression[k] = kinds[k].regression;
  }
  List out = List::create(Named("name") = name, Named("code") = code, Named("part") = part,
                          Named("holds_model") = model, Named("linear") = linear,
                          Named("classification") = classification, Named("regression") = regression);
  out.attr("class") = "data.frame";
  out.attr("row.names") = Rcpp::seq_len(n);
  return out;
}

// Split kind codes, named.
// [[Rcpp::export(.svf_split_kinds)]]
Rcpp::IntegerVector svf_split_kinds() {
  const auto kinds = svf::split_kinds();
  Rcpp::IntegerVector out(kinds.size());
  Rcpp::CharacterVector names(kinds.size());
  for (size_t k = 0; k < kinds.size(); ++k) {
    out[k] = kinds[k].second;
    names[k] = kinds[k].first;
  }
  out.attr("names") = names;
  return out;
}

// The names of the engine's parts, as R gives them: list(leaf, splitter).
// [[Rcpp::export(.svf_part_names)]]
List svf_part_names() {
  std::vector<std::string> leaves;
  for (const svf::LeafKindInfo& k : svf::leaf_kinds())
    if (k.chosen_by_name()) leaves.push_back(k.name);
  return List::create(Named("leaf") = Rcpp::wrap(leaves), Named("splitter") = Rcpp::wrap(svf::splitter_names()));
}

namespace {

// A field as an R vector: integers, doubles or a logical, with its dim;
// attribute `at`: its position (from 1) in the tree's integer or double
// payload array when stored there as is.
SEXP field_to_r(const svf::PayloadField& f, long payload_start) {
  SEXP value;
  if (f.type == svf::PayloadField::Real) {
    value = Rcpp::wrap(f.reals);
  } else if (f.type == svf::PayloadField::Logical) {
    Rcpp::LogicalVector v(f.ints.size());
    for (size_t i = 0; i < f.ints.size(); ++i) v[i] = f.ints[i] != 0;
    value = v;
  } else {
    value = Rcpp::wrap(f.ints);
  }
  Rcpp::RObject out(value);
  if (!f.dim.empty()) out.attr("dim") = Rcpp::wrap(f.dim);
  if (f.at >= 0) out.attr("at") = static_cast<double>(payload_start + f.at + 1);
  return out;
}

}  // namespace

// Descriptions of payloads of one tree (checked first) of a forest with
// num_classes classes (0: regression) and p predictors. part "leaf": leaves
// `index` (from 1); "split": nodes `index` (from 1; a leaf node gives an
// empty list). Each element is a named list of fields, with `kind` (the
// kind's name) first; with `field`, each element is only that field (NULL
// when the payload has none).
// [[Rcpp::export(.svf_describe)]]
List svf_describe(List tree, int num_classes, int p, std::string part, Rcpp::IntegerVector index,
                  Rcpp::Nullable<Rcpp::String> field = R_NilValue, int num_times = 0, int num_causes = 0) {
  svf::OutcomeShape shape;
  shape.num_classes = num_classes;
  shape.num_times = num_times;  // > 0: a survival forest's time grid
  shape.num_causes = num_causes;  // > 0: competing risks on that grid
  shape.p = static_cast<size_t>(p);
  svf::Tree storage;
  const svf::TreeView t = tree_view_from_r(tree, shape, 0, storage);
  const bool leaves = part == "leaf";
  if (!leaves && part != "split") Rcpp::stop("internal: part must be \"leaf\" or \"split\"");
  const std::string only = field.isNull() ? std::string() : std::string(Rcpp::as<std::string>(field.get()));
  const svf::LeafReaders readers = svf::all_leaf_readers();
  std::vector<std::pair<std::string, int>> leaf_names, split_names = svf::split_kinds();
  for (const svf::LeafKindInfo& k : svf::leaf_kinds()) leaf_names.emplace_back(k.name, k.kind);
  auto name_of = [](const std::vector<std::pair<std::string, int>>& names, int kind) {
    for (const auto& n : names)
      if (n.second == kind) return n.first;
    return std::string();
  };
  List out(index.size());
  for (R_xlen_t i = 0; i < index.size(); ++i) {
    const int at = index[i] - 1;
    const size_t limit = leaves ? t.n_leaves : t.n_nodes;
    if (index[i] == NA_INTEGER || at < 0 || static_cast<size_t>(at) >= limit) Rcpp::stop("internal: index out of range");
    svf::PayloadDescription d;
    std::string kind;
    long int_start = 0, real_start = 0;
    if (leaves) {
      const svf::LeafPayload lp = svf::leaf_payload(t, at);
      readers[lp.kind].describe(lp, shape, d);
      kind = name_of(leaf_names, lp.kind);
      int_start = t.leaf_int_start[at];
      real_start = t.leaf_real_start[at];
    } else if (t.leaf_id[at] < 0) {
      int_start = t.split_int_start[at];
      real_start = t.split_real_start[at];
      svf::describe_split(t.split_kind[at], t.split_int + int_start, t.split_real + real_start, shape.p, d);
      kind = name_of(split_names, t.split_kind[at]);
    }
    auto convert = [&](const svf::PayloadField& f) {
      return field_to_r(f, f.type == svf::PayloadField::Real ? real_start : int_start);
    };
    if (!only.empty()) {
      const svf::PayloadField* f = d.find(only);
      out[i] = f ? convert(*f) : R_NilValue;
      continue;
    }
    if (kind.empty()) {
      out[i] = List();
      continue;
    }
    List fields(d.fields.size() + 1);
    Rcpp::CharacterVector names(d.fields.size() + 1);
    fields[0] = kind;
    names[0] = "kind";
    for (size_t f = 0; f < d.fields.size(); ++f) {
      fields[f + 1] = convert(d.fields[f]);
      names[f + 1] = d.fields[f].name;
    }
    fields.attr("names") = names;
    out[i] = fields;
  }
  return out;
}

#include "LeafKinds.h"

#include <stdexcept>

#include "AalenJohansenLeaf.h"
#include "ClassCountsLeaf.h"
#include "ConstantLeaf.h"
#include "KernelSvmLeaf.h"
#include "KernelSvrLeaf.h"
#include "LinearSvmLeaf.h"
#include "LinearSvrLeaf.h"
#include "LogisticLeaf.h"
#include "MeanLeaf.h"
#include "NelsonAalenLeaf.h"
#include "RidgeLeaf.h"

namespace svf {

namespace {

struct LeafKindEntry {
  const char* name;
  int kind;
  std::unique_ptr<LeafModel> (*create)(const Params*);
  // the leaf part R names that writes this kind (the kind's own name, or
  // another part's: compact class counts and means are "constant" leaves)
  const char* part;
};

// One line per leaf kind. Codes are saved in models: never reuse one.
const LeafKindEntry kLeafKinds[] = {
    {"constant", ConstantLeafModel::kKind, &ConstantLeafModel::create, "constant"},
    {"linear_svm", LinearSvmLeafModel::kKind, &LinearSvmLeafModel::create, "linear_svm"},
    {"kernel_svm", KernelSvmLeafModel::kKind, &KernelSvmLeafModel::create, "kernel_svm"},
    {"logistic", LogisticLeafModel::kKind, &LogisticLeafModel::create, "logistic"},
    {"mean", MeanLeafModel::kKind, &MeanLeafModel::create, "constant"},
    {"ridge", RidgeLeafModel::kKind, &RidgeLeafModel::create, "ridge"},
    {"linear_svr", LinearSvrLeafModel::kKind, &LinearSvrLeafModel::create, "linear_svr"},
    {"kernel_svr", KernelSvrLeafModel::kKind, &KernelSvrLeafModel::create, "kernel_svr"},
    {"class_counts", ClassCountsLeafModel::kKind, &ClassCountsLeafModel::create, "constant"},
    {"nelson_aalen", NelsonAalenLeafModel::kKind, &NelsonAalenLeafModel::create, "nelson_aalen"},
    {"aalen_johansen", AalenJohansenLeafModel::kKind, &AalenJohansenLeafModel::create, "aalen_johansen"},
};

// Models for prediction (default parameters: prediction reads only payloads).
struct Readers {
  std::vector<std::pair<int, std::unique_ptr<LeafModel>>> models;
  Readers() {
    for (const LeafKindEntry& e : kLeafKinds) models.emplace_back(e.kind, e.create(nullptr));
  }
};

}  // namespace

std::unique_ptr<LeafModel> make_leaf_model(const std::string& name, const Params& params) {
  for (const LeafKindEntry& e : kLeafKinds)
    if (name == e.part && name == e.name) return e.create(&params);
  throw std::invalid_argument("unknown leaf model '" + name + "'");
}

const LeafModel* leaf_model_of_kind(int kind) {
  static const Readers readers;  // thread-safe initialisation (C++11)
  for (const auto& m : readers.models)
    if (m.first == kind) return m.second.get();
  return nullptr;
}

std::vector<LeafKindInfo> leaf_kinds() {
  std::vector<LeafKindInfo> out;
  for (const LeafKindEntry& e : kLeafKinds) {
    const LeafModel* m = leaf_model_of_kind(e.kind);
    out.push_back(LeafKindInfo{e.name, e.kind, e.part, m->holds_model(), m->linear(),
                               m->fits_classification(), m->fits_regression()});
  }
  return out;
}

std::string validate_leaves(const TreeView& t, const OutcomeShape& shape) {
  for (size_t l = 0; l < t.n_leaves; ++l) {
    const LeafModel* model = leaf_model_of_kind(t.leaf_kind[l]);
    if (model == nullptr) return "unknown leaf type";
    const std::string problem = model->check(leaf_payload(t, static_cast<int>(l)), shape);
    if (!problem.empty()) return problem;
  }
  return "";
}

}  // namespace svf

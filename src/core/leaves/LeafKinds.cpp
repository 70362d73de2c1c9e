#include "LeafKinds.h"

#include <stdexcept>

#include "ConstantLeaf.h"
#include "KernelSvmLeaf.h"
#include "KernelSvrLeaf.h"
#include "LinearSvmLeaf.h"
#include "LinearSvrLeaf.h"
#include "LogisticLeaf.h"
#include "MeanLeaf.h"
#include "RidgeLeaf.h"

namespace svf {

namespace {

struct LeafKindEntry {
  const char* name;
  int kind;
  std::unique_ptr<LeafModel> (*create)(const Params*);
};

// One line per leaf kind. Codes are saved in models: never reuse one.
const LeafKindEntry kLeafKinds[] = {
    {"constant", ConstantLeafModel::kKind, &ConstantLeafModel::create},
    {"linear_svm", LinearSvmLeafModel::kKind, &LinearSvmLeafModel::create},
    {"kernel_svm", KernelSvmLeafModel::kKind, &KernelSvmLeafModel::create},
    {"logistic", LogisticLeafModel::kKind, &LogisticLeafModel::create},
    {"mean", MeanLeafModel::kKind, &MeanLeafModel::create},
    {"ridge", RidgeLeafModel::kKind, &RidgeLeafModel::create},
    {"linear_svr", LinearSvrLeafModel::kKind, &LinearSvrLeafModel::create},
    {"kernel_svr", KernelSvrLeafModel::kKind, &KernelSvrLeafModel::create},
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
    if (name == e.name) return e.create(&params);
  throw std::invalid_argument("unknown leaf model '" + name + "'");
}

const LeafModel* leaf_model_of_kind(int kind) {
  static const Readers readers;  // thread-safe initialisation (C++11)
  for (const auto& m : readers.models)
    if (m.first == kind) return m.second.get();
  return nullptr;
}

std::vector<std::pair<std::string, int>> leaf_kind_names() {
  std::vector<std::pair<std::string, int>> out;
  for (const LeafKindEntry& e : kLeafKinds) out.emplace_back(e.name, e.kind);
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

// What a leaf predicts, fitted and read back. Each leaf kind is one
// LeafModel: fit() turns a leaf's in-bag rows into a payload (its kind code,
// integers and doubles, laid out as the kind chooses), predict() and check()
// read such a payload back from a tree (tree/Tree.h). The trainer hands each
// leaf its rows and class counts plus a generator of its own.
#ifndef SVFOREST_LEAFMODEL_H
#define SVFOREST_LEAFMODEL_H

#include <memory>
#include <string>
#include <vector>
#include <linear.h>

#include "common/Params.h"
#include "common/Random.h"
#include "data/TrainingData.h"
#include "tree/Payload.h"
#include "tree/Tree.h"

namespace svf {

struct LeafFit {
  int kind = 0;
  std::vector<int> ints;
  std::vector<double> reals;
};

// What every prediction needs to know about the model.
struct OutcomeShape {
  int num_classes = 0;  // classification: a leaf outputs its class distribution
  size_t p = 0;         // predictors
  // survival (num_times > 0): a leaf outputs its cumulative hazard at each
  // of the forest's num_times event times
  int num_times = 0;
  // competing risks (num_causes > 0, on the grid of num_times): a leaf
  // outputs each cause's cumulative incidence at each grid time (cause-major)
  int num_causes = 0;
  // regression (num_classes 0): a leaf outputs one value
  bool regression() const { return num_classes == 0 && num_times == 0; }
  bool survival() const { return num_times > 0 && num_causes == 0; }
  bool competing() const { return num_causes > 0; }
  int outputs() const {
    return num_classes > 0 ? num_classes : num_times > 0 ? num_times * (num_causes > 0 ? num_causes : 1) : 1;
  }
};

// A leaf's linear model, on the scaled predictors: `outputs` rows of p + 1
// weights (bias last). Classification: the outputs are for `classes` (n_classes
// of them, ascending): with two classes one output, whose positive side picks
// classes[1]; with more, one output per class (one-vs-rest). Regression: one
// output, no classes.
struct LinearTerms {
  int outputs = 0;
  const double* weights = nullptr;
  const int* classes = nullptr;
  int n_classes = 0;
};

class LeafModel {
 public:
  virtual ~LeafModel() {}
  // fitting
  virtual bool needs_scaled_rows() const = 0;
  // The outcome types the leaf fits (checked in R before the engine runs).
  virtual bool fits_regression() const { return false; }
  // The leaf estimates a survival outcome's hazard (TrainingData::survival()).
  virtual bool fits_survival() const { return false; }
  // The leaf estimates competing risks' incidences (TrainingData::competing()).
  virtual bool fits_competing() const { return false; }
  virtual bool fits_classification() const { return true; }
  virtual void fit(const TrainingData& data, const int* rows, size_t n, const int* counts, Rng& rng,
                   LeafFit& out) const = 0;
  // prediction, on a payload that passed check(): the leaf's output (a class
  // distribution of num_classes values, or one value for regression) and
  // its confidence in its class (max-confidence aggregation; classification
  // only). row: the scaled row, given when reads_row().
  virtual bool reads_row() const = 0;
  virtual void predict(const LeafPayload& leaf, const OutcomeShape& shape, const feature_node* row,
                       double* out, double* confidence) const = 0;
  // Empty when the payload is a valid leaf of this kind; else what is wrong.
  virtual std::string check(const LeafPayload& leaf, const OutcomeShape& shape) const = 0;

  // What a (checked) payload holds, as named fields: every classification
  // leaf describes "counts" (its K class counts); a leaf with a fitted model
  // its settings ("cost", "lambda", "gamma") and parameters.
  virtual void describe(const LeafPayload& leaf, const OutcomeShape& shape, PayloadDescription& out) const = 0;
  // Whether leaves of the kind hold a fitted model (not class frequencies or
  // a mean).
  virtual bool holds_model() const { return true; }
  // Whether leaves of the kind are linear models (linear_terms() answers).
  virtual bool linear() const { return false; }
  // The linear model of a (checked) payload; false when it has none.
  virtual bool linear_terms(const LeafPayload&, const OutcomeShape&, LinearTerms&) const { return false; }
  // Support vectors a row evaluates in the leaf (kernel leaves; else 0).
  virtual int support_vectors(const LeafPayload&, const OutcomeShape&) const { return 0; }
};

// Class counts (the first num_classes integers of every classification
// leaf's payload) and the frequencies they give.
std::string check_class_counts(const LeafPayload& leaf, const OutcomeShape& shape);
void class_frequencies(const int* counts, int num_classes, double* out, double* confidence);
// The payload of a leaf that keeps its class frequencies (the compact kind,
// ClassCountsLeaf.h).
void constant_leaf(const int* counts, int num_classes, LeafFit& out);
// Describes the K class counts that start a payload's integers.
void describe_class_counts(const LeafPayload& leaf, const OutcomeShape& shape, PayloadDescription& out);

}  // namespace svf
#endif

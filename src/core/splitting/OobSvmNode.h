// The OOB-SVM splitter's node (OobSvmSplitter.h), apart from the splitter
// class: its options, the node's linear SVMs, the out-of-bag error kernel and
// the scoring of one candidate's children (OobSvmNode.cpp, OobSvmCriteria.cpp).
#ifndef SVFOREST_OOBSVMNODE_H
#define SVFOREST_OOBSVMNODE_H

#include <vector>

#include "Splitter.h"
#include "svm/NewtonSvm.h"

namespace svf {

struct OobSvmOptions {
  size_t n_theta = 8, n_omega = 1, n_tau = 4;
  size_t proj_dim = 1;
  double delta_tau = 0.0;   // share of the node's projection range
  size_t min_leaf = 5;      // in-bag rows each child needs
  double cost = 1.0;
  double tolerance = 0.1;   // LIBLINEAR stopping tolerance while scoring
  int max_iter = 100;       // Newton steps per child SVM while scoring
  int node_max_iter = 100;  // Newton steps of the node's own SVM
  double screen_fraction = 1.0;  // share of a node's rows for screening (1: none)
  size_t screen_keep = 4;        // candidates scored in full after screening
  int min_class_rows = 2;
  bool rare_as_negative = true;
  bool balanced = true;
  // cost factor per class for SVMs with two classes (empty: 1), after
  // balancing: a two-class task weights its classes to the task's shares
  std::vector<double> class_factor;
};

// A node's linear SVMs fitted as LinearSvmLeafModel fits a leaf with one C.
struct NodeSvm {
  std::vector<int> classes;  // classes with an SVM output (ascending)
  std::vector<double> w;     // outputs x (p + 1); one output when 2 classes
  int constant = -1;         // class predicted when there is no SVM
  int predict(const feature_node* row, size_t p) const;
};

// mult: how often each row was drawn (nullptr: once).
// warm[k] (p + 1 weights, or empty) starts class k's one-vs-rest problem;
// if `solutions` is given it receives the same kind of vector for the
// fitted SVMs (a binary SVM gives +w for its positive, -w for its other class).
// from, from_pos: when the Newton solver is used, the rows' design is copied
// from columns from_pos[0..n) of `from` (a design of rows that include them)
// instead of being gathered from the scaled rows; the same values. from_z[k]:
// the decision values of warm[k] on the columns of `from` (many predictors).
NodeSvm fit_node_svm(const TrainingData& data, const int* rows, const int* mult, size_t n,
                     const OobSvmOptions& opt, const std::vector<std::vector<double>>* warm,
                     std::vector<std::vector<double>>* solutions, const NewtonDesign* from = nullptr,
                     const int* from_pos = nullptr,
                     const std::vector<std::vector<double>>* from_z = nullptr);

size_t count_errors(const NodeSvm& svm, const TrainingData& data, const int* rows, size_t n);

// A node's out-of-bag rows, scaled, as dense rows (bias 1 last), gathered
// once per node for counting the errors of its candidates' children: the
// decision values are the sums of dot() (zeros add nothing), several at a
// time over contiguous memory. Empty (x) for sparse data with many predictors.
struct OobRows {
  const int* ids = nullptr;
  size_t n = 0, p1 = 0;
  std::vector<double> x;  // n x p1, row-major
};
void gather_oob_rows(const TrainingData& data, const int* oob, size_t n, OobRows& out);

// The errors on the OOB rows at positions at[0..n) of `rows` (as count_errors()).
size_t count_errors(const NodeSvm& svm, const TrainingData& data, const OobRows& rows, const int* at,
                    size_t n);

// Out-of-bag errors of the children of one candidate split of a node:
// in-bag rows with projection proj_in <= tau + band go left, > tau - band
// right; OOB rows by proj_oob <= tau. Child SVMs start from `warm` (the
// node's solutions). Returns -1 when the split is invalid (a child with fewer
// than min_leaf in-bag rows, or with all of them; rows count mult times), -2 when it was abandoned
// because its first child alone has more than `give_up` errors.
long score_split(const TrainingData& data, const int* rows, const int* mult, size_t n,
                 const double* proj_in, const int* oob, size_t n_oob, const double* proj_oob,
                 double tau, double band, const OobSvmOptions& opt,
                 const std::vector<std::vector<double>>& warm, long give_up,
                 const OobRows* dense_oob = nullptr, const NewtonDesign* node_design = nullptr,
                 const int* node_pos = nullptr,
                 const std::vector<std::vector<double>>* node_z = nullptr);

// Index of the candidate with the fewest child errors (the first on ties)
// among those with fewer than parent_errors (delta_e > 0); -1 if none.
long best_split(const std::vector<long>& child_errors, long parent_errors);

// The rows of a candidate's two children: in-bag rows (with multiplicities;
// rows within `band` of tau go to both) and out-of-bag rows (plain rule).
struct ChildRows {
  std::vector<int> left, right, mult_left, mult_right, oob_left, oob_right;
  std::vector<int> at_left, at_right;  // positions of oob_left, oob_right in the node's OOB rows
  std::vector<int> pos_left, pos_right;  // positions of left, right in rows[0..n)
};

// The children of a candidate (OobSvmCriteria.cpp); false when the split is
// invalid: a child with fewer than min_leaf in-bag rows, or with all of them
// (rows count mult times).
bool split_children(const int* rows, const int* mult, size_t n, const double* proj_in, const int* oob,
                    size_t n_oob, const double* proj_oob, double tau, double band, size_t min_leaf,
                    ChildRows& c);

}  // namespace svf
#endif

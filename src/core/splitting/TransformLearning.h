// Learning a transformation forest's T (TransformSplitter.h), apart from the
// splitter class: the nuclear-norm objective's descent, the groups' bases,
// the node's rows as learning sees them, the randomized range finder of the
// automatic rank and the choice of the subspace dimension
// (TransformLearning.cpp).
#ifndef SVFOREST_TRANSFORMLEARNING_H
#define SVFOREST_TRANSFORMLEARNING_H

#include <Eigen/Dense>
#include <vector>

#include "Splitter.h"

namespace svf {

// Fewest out-of-bag rows a node needs for the out-of-bag choice; with fewer
// the node uses the in-bag rule.
const size_t kMinOob = 10;

struct LearnedTransform {
  Eigen::MatrixXd T;               // the iterate with the smallest objective
  std::vector<double> objective;   // f at the start and after every step
};

// The automatic rank's cap (TransformOptions::rank <= 0).
const int kAutoRank = 32;

// A (p x m_a) and B (p x m_b): the two groups' rows as columns, already
// normalised as the caller wishes. rank < p gives a fat T started from the
// top principal directions of [A, B] (the identity restricted to them).
// center_groups: the groups' own terms use their rows minus the group's mean
// (affine subspaces; the union term keeps [A, B] as given, centred by the
// caller at the node's mean), so T is rewarded for keeping the groups' means
// apart and for making each group's spread low-rank.
LearnedTransform learn_transform(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, int rank,
                                 int iterations, double step, bool center_groups = false);

// Top `dim` left singular vectors of T M (r x dim); directions with a zero
// singular value are left as zero columns.
Eigen::MatrixXd group_basis(const Eigen::MatrixXd& T, const Eigen::MatrixXd& M, int dim);

// A node's rows as columns, as learning sees them. The paper's way (center =
// false): raw predictors, each row of unit norm. Affine (center = true):
// each predictor centred at its node mean and divided by its node standard
// deviation. Either way all is divided so that ||X||_F = 1 (the mean squared
// row norm is 1 / n), so the objective and the step size mean the same at
// every node size. A predictor constant in the node is never used: its row
// of X is zero and its column of T is zeroed after learning, so routing
// ignores it.
struct NodeColumns {
  Eigen::MatrixXd X;                              // p x n
  std::vector<size_t> constant;
  std::vector<double> shift, factor;       // affine: x -> (x - shift) * factor
  size_t varying = 0;
};
void node_columns(const TrainingData& data, const int* rows, size_t n, bool affine_kind, NodeColumns& nc);

// The node's out-of-bag rows (transform_choice = "oob"), mapped as its rows
// are: x -> (x - shift) * factor (the paper's kind: raw, constant predictors
// zeroed; routing does not depend on a row's scale).
struct NodeOob {
  Eigen::MatrixXd Xo;                     // p x m
  std::vector<int> oob_class;
  std::vector<double> oob_weight;  // empty without case weights
};
void node_oob(const TrainingData& data, const NodeContext& node, const NodeColumns& nc, NodeOob& no);

// The node's top q principal directions (rows of the result, orthonormal)
// by a randomized range finder on the columns of X (TransformLearning.cpp).
Eigen::MatrixXd top_directions(const Eigen::MatrixXd& X, int q, Rng& rng);

// Information gains of the rules with subspaces of dimension d = 1..UA.cols()
// on the columns of Y, and the columns each sends to A; best_dim() picks d
// (see TransformLearning.cpp).
void gains_by_dim(const Eigen::MatrixXd& T, const Eigen::VectorXd& za, const Eigen::VectorXd& zb,
                  const Eigen::MatrixXd& UA, const Eigen::MatrixXd& UB, const Eigen::MatrixXd& Y,
                  const std::vector<int>& cls, const double* w, int K, std::vector<double>& gain,
                  std::vector<size_t>& n_left);
int best_dim(const std::vector<double>& gain, const std::vector<size_t>& n_left, size_t n);

}  // namespace svf
#endif

#' @include registry.R parts.R
NULL

# Method "transform": transformation forests. Trees grow on subsamples;
# each split learns a low-rank-promoting linear transformation and routes
# rows to the closer of two subspaces (affine ones on node-standardised
# predictors by default, the paper's through the origin with
# transform_center = FALSE); leaves keep class frequencies and the forest
# averages them.

register_method("transform", sampler = "subsample", splitter = "transform", leaf = "constant",
                aggregation = "prob", ntree = 20L, defaults = list(max_depth = 9L))

register_part("splitter", "transform",
              parameters = c("transform_rank", "transform_center", "subspace_dim", "dim_per_class", "transform_choice", "transform_iter",
                             "transform_step", "node_tries", "min_node_size"),
              tune = "subspace_dim", node_size = "min_node_size")

#' @rdname svforest_methods
#' @name svforest_methods
#' @section Method "transform" (transformation forests):
#' Each tree grows on a random subsample (`sample_fraction`, default 0.632,
#' without replacement) to `max_depth = 9` (the paper's depth); leaves keep
#' class frequencies and the forest averages them (`aggregation = "prob"`).
#' At each node the classes present are divided at random into two non-empty
#' groups, and a linear transform `T` is learned by projected subgradient
#' descent (`transform_iter` steps of size `transform_step`, identity start)
#' on `||T A||_* + ||T B||_* - ||T [A, B]||_*` subject to `||T||_2 = 1`,
#' where `A`, `B` hold the groups' rows as columns and `||.||_*` is the
#' nuclear norm: it makes each group low-rank and pushes the two groups'
#' subspaces apart.
#'
#' With `transform_center = FALSE` (the paper) the subspaces pass through
#' the origin: predictors are used raw (`scale = "minmax"` or `"none"` make no
#' difference; `"rank"` replaces them by their ranks), rows are divided
#' by their norm for learning, each group is modelled by the top
#' `subspace_dim` left singular vectors of its transformed rows, and a row
#' `x` goes to the child of the group whose subspace reconstructs `T x` with
#' the smaller residual (routing does not depend on a row's scale). That
#' suits data whose classes lie near linear subspaces (faces under varying
#' light, digits), but on ordinary tabular data (predictors in different
#' units, classes that differ by their means) it fails: two classes on
#' either side of the origin lie along the same line, and a forest can
#' predict one class everywhere.
#'
#' The default, `transform_center = TRUE`, makes the subspaces affine: at
#' each node every predictor is centred at its node mean and divided by its
#' node standard deviation (so splits do not depend on units or shifts), the
#' two groups' terms of the objective use their rows minus the group's mean
#' (`||T (A - a)||_* + ||T (B - b)||_* - ||T [A, B]||_*`: T keeps the groups'
#' means apart and makes each group's spread low-rank), each group is
#' modelled by its transformed mean plus the top singular vectors of its
#' centred transformed rows, and a row goes to the group whose affine
#' subspace is closer to `T x`. These splits are stored as split kind
#' `"affine_transform"` (the node's centre and scaling folded into the
#' payload), the paper's as `"transform"`.
#'
#' `transform_choice` decides how each node's split is chosen. With
#' `"inbag"` (the paper's way) the split uses the learned `T`; with affine
#' subspaces the dimension `d` of the two subspaces is chosen among
#' `1..subspace_dim` (the cap; with `dim_per_class` the node's cap) as the
#' one whose routing of the node's own rows has the largest information gain
#' (ties: the smaller), which always favours the most flexible split: on
#' small tabular data (sonar, pima) the learned transform overfits. The
#' default, `"oob"`, judges the split on rows it was not learned from: trees
#' grow on subsamples, and each node's out-of-bag rows (those of the tree's
#' out-of-bag rows that reach it) are routed by the candidates: the learned
#' `T` and the identity `T` (the start of learning, no steps), each with
#' subspaces of dimension `d = 1..cap` (both kinds, also the paper's
#' through the origin). The transform with the larger mean information gain
#' of its out-of-bag routing over its dimensions is kept (ties: the
#' identity), with the dimension of the largest gain (ties: the smaller);
#' candidates sending every in-bag row one way are skipped. With case or
#' class weights the out-of-bag rows count with their weights (the in-bag
#' rows carry theirs as copies). Nodes with fewer
#' than 10 out-of-bag rows (and every node when `sample_fraction = 1` or the
#' sampler leaves no row out) use the `"inbag"` rule. The choice adds one
#' transform's subspaces and the routing of the out-of-bag rows to each node
#' (about 1.1 to 1.5 times the fit time). With `node_tries > 1` the tries
#' are compared by the out-of-bag gain of their chosen split too. Splits
#' are stored as before, so models of either choice predict alike. The
#' out-of-bag rows that choose the splits also give the out-of-bag error
#' and probabilities (as in RSVF; the preset's forests are kept as they
#' were), so with `"oob"` these are optimistic, and `print()` says so.
#'
#' With `dim_per_class = k` (default `NA`: off) a node with `c` classes uses
#' `ceiling(k c / 2)` dimensions for both groups, at most `subspace_dim`:
#' a group of several classes spans the union of their subspaces, so
#' nodes near the root need more dimensions than nodes with two classes
#' (faces under varying light: `k = 9`, with `subspace_dim` raised as the
#' cap, e.g. 120). The iterate with the smallest objective is kept.
#'
#' `transform_rank` sets the rows of `T`. The default `NA` (automatic) is
#' the square `T` when the node has at most 32 non-constant predictors; on
#' wider data `T = W P`, where `P` holds the node's top 32 principal
#' directions (found by a randomized range finder that draws from the tree's
#' generator) and the square `32 x 32` transform `W` is learned from the
#' identity, so a step costs `O(32^2 n)` instead of `O(p^2 n)` (madelon,
#' 2,000 x 500: about 14 s instead of more than 5 minutes on 2 threads).
#' `transform_rank = r` (2 to `p - 1`) learns a "fat" `r` x `p` transform
#' freely, started from the node's top `r` principal directions;
#' `transform_rank = ncol(x)` (or more) gives the square `T` on any data.
#' The paper's method is `transform_center = FALSE, transform_rank = ncol(x)`.
#'
#' Nodes with fewer than `min_node_size` rows are leaves; a node whose rule
#' sends every row one way is retried with new groups (3 attempts). With
#' `node_tries = t` (default 1) each node draws `t` random divisions of its
#' classes in turn (randomized node optimisation, Criminisi & Shotton),
#' learns `T` and the subspaces for each, and keeps the one whose routing of
#' the node's rows has the largest information gain (class entropy of the
#' node minus the size-weighted entropies of the children; ties: the earlier
#' draw); the fit costs about `t` times as much. Predictors constant in a
#' node are left out of its transform (they get zero weight). A subspace of
#' `subspace_dim` dimensions (at most `r` - 1, with `r` the transform's
#' rank) must leave room for a residual, so transformation splits need at
#' least two (non-constant) predictors: with one predictor every tree is a
#' single leaf and every row gets the same prediction. Cost per node (square
#' `T`): `O(n p^2)` once, then per step `O(r p^2 + r^3)` (groups with fewer
#' rows than `p`: `O(r p m)`).
NULL

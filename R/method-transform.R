#' @include registry.R parts.R
NULL

# Method "transform": transformation forests. Trees grow on subsamples;
# each split learns a low-rank-promoting linear transformation and routes
# rows to the closer of two subspaces; leaves keep class frequencies and the
# forest averages them.

register_method("transform", sampler = "subsample", splitter = "transform", leaf = "constant",
                aggregation = "prob", ntree = 20L, defaults = list(max_depth = 9L))

register_part("splitter", "transform",
              parameters = c("transform_rank", "transform_center", "subspace_dim", "dim_per_class", "transform_iter",
                             "transform_step", "node_tries", "min_node_size"),
              tune = "subspace_dim")

#' @rdname svforest
#' @name svforest
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
#' subspaces apart. Each group is modelled by the top `subspace_dim` left
#' singular vectors of its transformed rows; a row `x` goes to the child of
#' the group whose subspace reconstructs `T x` with the smaller residual.
#' With `dim_per_class = k` (default `NA`: off) a node with `c` classes uses
#' `ceiling(k c / 2)` dimensions for both groups, at most `subspace_dim`:
#' a group of several classes spans the union of their subspaces, so
#' nodes near the root need more dimensions than nodes with two classes
#' (faces under varying light: `k = 9`, with `subspace_dim` raised as the
#' cap, e.g. 120). The
#' iterate with the smallest objective is kept. `transform_rank = r` learns a
#' "fat" `r x p` transform (dimension reduction; started from the node's top
#' `r` principal directions, and much faster on wide data); the default `NA`
#' is the paper's square `T`. Nodes with fewer than `min_node_size` rows are
#' leaves; a node whose rule sends every row one way is retried with new
#' groups (3 attempts). With `node_tries = t` (default 1) each node draws
#' `t` random divisions of its classes in turn (randomized node optimisation,
#' Criminisi & Shotton), learns `T` and the subspaces for each, and keeps the
#' one whose routing of the node's rows has the largest information gain
#' (class entropy of the node minus the size-weighted entropies of the
#' children; ties: the earlier draw); the fit costs about `t` times as much.
#' Predictors are used as they are, without scaling
#' (`scale` is ignored): subspaces pass through the origin and a shift would
#' break them; rows are divided by their norm for learning, and routing does
#' not depend on a row's scale. Predictors constant in a node are left out
#' of its transform (they get zero weight). A subspace of `subspace_dim`
#' dimensions (at most `r - 1`, with `r` the transform's rank) must leave
#' room for a residual, so transformation splits need at least two
#' (non-constant) predictors: with one predictor every tree is a single leaf
#' and every row gets the same prediction. Cost per node: `O(n p^2)` once, then per
#' step `O(r p^2 + r^3)` (groups with fewer rows than `p`: `O(r p m)`).
NULL

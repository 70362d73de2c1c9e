# Tests read the trees of a model only through the package's accessors
# (R/tree-access.R), so that they do not depend on the saved tree format.
for (.f in ls(asNamespace("svforest"), pattern = "^tree_")) assign(.f, get(.f, envir = asNamespace("svforest")))
rm(.f)

# The accessors over all trees of a fitted model.
leaf_kinds <- function(fit) unlist(lapply(fit$forest$trees, tree_leaf_kinds))
leaf_costs <- function(fit) unlist(lapply(fit$forest$trees, tree_leaf_costs, forest = fit$forest))
all_leaf_sizes <- function(fit) unlist(lapply(fit$forest$trees, tree_leaf_sizes))

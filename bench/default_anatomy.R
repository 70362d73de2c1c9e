# Where the default forest's fit time goes, by structure, and where its
# hyperplanes win: on the harness's sets (their first split), each set's
# default fit against ranger-500 in the same process (the fastest of three
# fits each), beside
#   - one structure per tree (tree_choice = "none": no axis-only rival),
#   - axis cuts alone (n_oblique = 0: a random forest's trees),
#   - axis cuts alone with ranger's 500 trees (the cost of one tree);
# then, from the default's trees: the share that kept the axis-only rival
# structure, and how often a split is a hyperplane below an axis cut and
# below a hyperplane (the trees of tree_choice = "none").
#
#   Rscript bench/default_anatomy.R [data_dir] [--only=a,b] [--task=regression|classification]
local({
  script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  for (helper in c("bench_common.R", "datasets.R"))
    source(file.path(if (length(script)) dirname(normalizePath(script[1])) else "bench", helper), local = globalenv())
})
args <- bench_args()
for (pkg in c("modeldata", "mlbench", "kernlab")) bench_need_package(pkg)
registry <- benchmark_registry(args$data_dir)
task <- if (length(args$value("task"))) args$value("task") else "regression"
sets <- names(registry)[vapply(registry, function(r) r$task == task, TRUE)]
if (length(args$only)) sets <- intersect(args$only, sets)
suppressPackageStartupMessages(library(svforest))
stopifnot(requireNamespace("ranger", quietly = TRUE))

fastest <- function(expr_fun) min(vapply(1:3, function(i) system.time(expr_fun())[["elapsed"]], 0))
variants <- list(default = list(), one_structure = list(tree_choice = "none"), axis = list(n_oblique = 0L),
                 axis_500 = list(n_oblique = 0L, ntree = 500L, ntree_max = 500L))

# Per split node of a tree: its kind (1 a hyperplane) and its parent's (NA at the root).
split_parents <- function(tree) {
  nd <- svforest:::tree_nodes(tree)
  parent <- rep(NA_integer_, length(nd$split_kind))
  inner <- which(nd$left_child >= 0)
  parent[nd$left_child[inner] + 1L] <- nd$split_kind[inner]
  parent[nd$right_child[inner] + 1L] <- nd$split_kind[inner]
  split <- nd$split_kind >= 0L
  data.frame(kind = nd$split_kind[split], parent = parent[split])
}

say(sprintf("== %d %s sets: fit time / ranger-500 (2 threads, the fastest of 3) ==\n", length(sets), task))
for (nm in sets) {
  s <- registry[[nm]]$load()
  f <- stats::as.formula(paste0("`", s$outcome, "` ~ ."))
  complete <- s$train[stats::complete.cases(s$train), ]
  t_rg <- fastest(function() ranger::ranger(f, data = complete, num.trees = 500, seed = 1, num.threads = 2))
  fits <- list()
  ratio <- vapply(names(variants), function(v) {
    fastest(function() fits[[v]] <<- do.call(svforest, c(list(f, data = s$train, seed = 1, num_threads = 2, verbose = FALSE),
                                                         variants[[v]]))) / t_rg
  }, 0)
  trees <- fits$default$forest$trees
  rival <- mean(vapply(trees, function(t) !any(svforest:::tree_nodes(t)$split_kind == 1L), TRUE))
  sp <- do.call(rbind, lapply(fits$one_structure$forest$trees, split_parents))
  below <- function(k) mean(sp$kind[!is.na(sp$parent) & sp$parent == k] == 1L)
  say(sprintf("%-20s %s | axis-only rival kept in %.2f of trees | hyperplane below an axis cut %.2f, below a hyperplane %.2f\n",
              nm, paste(sprintf("%s %.2f", names(ratio), ratio), collapse = "  "), rival, below(0L), below(1L)))
}

# Small, fast settings per method for tests that loop over every method of
# svforest_methods(). A method without an entry here is tested with its own
# defaults and `ntree = 2`, so a new method is covered as soon as it exists;
# add an entry when its defaults are too slow for a unit test.
fast_settings <- list(
  rsvt = list(ntree = 2),
  psvm = list(ntree = 3),
  transform = list(ntree = 2, transform_iter = 3, subspace_dim = 2),
  # one (cost, gamma) pair: the search only tries sigma values
  tdsvm = list(cost = 1, gamma = 1, sigma0 = 20),
  rsvf = list(ntree = 2, n_theta = 2, n_tau = 2)
)

all_methods <- function() svforest_methods()$method

method_args <- function(method) {
  args <- fast_settings[[method]]
  if (is.null(args)) args <- list(ntree = 2)
  c(list(method = method), args)
}

# Fits with a method's fast settings; `...` adds or overrides arguments.
fit_method <- function(.method, .x, ...) {
  args <- utils::modifyList(c(method_args(.method), list(seed = 1, num_threads = 1)), list(...))
  do.call(svforest, c(list(.x), args))
}

# The model format after the current one (a model "from another version").
model_format_version_next <- function() svforest:::model_format_version + 1L

# A thread count above the number of cores, for the tests that ask for more
# threads than cores; under a core limit (R CMD check --as-cran, CRAN's
# policy of at most two threads) the test is skipped on larger machines.
threads_above_cores <- function() {
  cores <- parallel::detectCores()
  limited <- nzchar(Sys.getenv("_R_CHECK_LIMIT_CORES_")) && !identical(toupper(Sys.getenv("_R_CHECK_LIMIT_CORES_")), "FALSE")
  if (limited && cores > 2) testthat::skip("more threads than cores: not under a core limit on this machine")
  4L * cores
}

# Combinations of parts beyond the presets, with fast settings; the contract
# test (test-contract.R), the bad-input catalogue and the mutation fuzz run
# them as well as every method.
part_combinations <- list(
  # the tdsvm search over a cost x gamma grid (candidates evaluated in parallel)
  list(method = "tdsvm", cost = c(1, 10), gamma = c(1, 10), sigma0 = 20),
  list(method = "psvm", leaf = "linear_svm", ntree = 3),
  # the paper's plane offset, several draws per node
  list(method = "psvm", psvm_cut = "plane", node_tries = 3, ntree = 3),
  list(method = "rsvt", leaf = "constant", sampler = "bootstrap", ntree = 4),
  list(splitter = "cart", leaf = "kernel_svm", sigma = 40, cost = 1, gamma = 1, sampler = "bootstrap", ntree = 3)
)

# The cases of the contract test: every method with its fast settings, then
# the combinations of parts.
contract_cases <- function() {
  c(lapply(all_methods(), method_args), part_combinations)
}

# The arguments of a case, e.g. "method = psvm, leaf = linear_svm, ntree = 3".
case_label <- function(case) {
  paste(names(case), vapply(case, function(v) paste(format(v), collapse = "/"), ""), sep = " = ", collapse = ", ")
}

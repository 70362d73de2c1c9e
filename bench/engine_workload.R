# Small fixed workload (fit + predict of one method) for counting instructions
# with valgrind, which is repeatable where wall time on a shared machine is not:
#   R -d "valgrind --tool=callgrind --callgrind-out-file=cg.out" --vanilla -f bench/engine_workload.R --args rsvt
#   callgrind_annotate --inclusive=yes cg.out | grep -E "svf_fit\\(|predict_forest"
# Run it against two builds (R_LIBS=...) to compare them.
suppressPackageStartupMessages(library(svforest))
set.seed(99); w <- matrix(rnorm(80), 4, 20)
mk <- function(n, seed) { set.seed(seed); x <- matrix(runif(n * 20, -1, 1), n, 20); q <- 1L + (x[, 1] > 0) + 2L * (x[, 2] > 0)
  list(x = x, y = factor(cut(rowSums(w[q, ] * x), c(-Inf, -1, 1, Inf), labels = c("a", "b", "c")))) }
tr <- mk(800, 1); te <- mk(2000, 2)
m <- commandArgs(TRUE)[1]
a <- switch(m, rsvt = list(method = "rsvt", ntree = 3), psvm = list(method = "psvm", ntree = 10), rsvf = list(method = "rsvf", ntree = 3),
  tdsvm = list(method = "tdsvm", cost = c(1, 10), gamma = c(0.1, 1)), transform = list(method = "transform", ntree = 3, transform_iter = 5))
f <- do.call(svforest, c(list(tr$x, tr$y, seed = 1, num_threads = 1, verbose = FALSE), a))
p <- predict(f, te$x, type = "prob", num_threads = 1)

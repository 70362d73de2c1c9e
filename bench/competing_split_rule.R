# Which axis-cut statistic for competing-risks trees (issue 49): the
# composite cause-specific log-rank statistic (the sum over causes of the
# survdiff chi-squares) against Gray's test (the sum over causes of
# cmprsk::cuminc's statistics), measured by the cause-1 concordance
# (Wolbers) of small forests grown in R with each, on simulated data.
# A prototype of the rule, not of the engine: bootstrap trees, 3 of the
# predictors tried per node, cuts at their deciles, nodes of 20 rows or more;
# the leaf's risk is its Aalen-Johansen CIF of cause 1 at the training
# median event time.
#
#   Rscript bench/competing_split_rule.R [--reps=3] [--first=1] [--trees=30]
# (--first=4 --reps=3: replicates 4 to 6, the data seeds 104 to 106)
local({
  f <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  here <- if (length(f)) dirname(normalizePath(f[1])) else "bench"
  source(file.path(here, "bench_common.R"))
}, envir = globalenv())
args <- bench_args()
reps <- if (length(args$value("reps"))) as.integer(args$value("reps")) else 3L
first <- if (length(args$value("first"))) as.integer(args$value("first")) else 1L
n_trees <- if (length(args$value("trees"))) as.integer(args$value("trees")) else 30L
stopifnot(requireNamespace("cmprsk", quietly = TRUE))

simulate <- function(n, seed) {
  set.seed(seed)
  x <- matrix(stats::rnorm(n * 8), n, 8, dimnames = list(NULL, paste0("x", 1:8)))
  t1 <- stats::rexp(n, 0.15 * exp(0.9 * x[, 1] - 0.6 * x[, 2]))
  t2 <- stats::rexp(n, 0.25 * exp(0.9 * x[, 3] + 0.4 * x[, 1]))
  cens <- stats::runif(n, 0, 8)
  time <- pmin(t1, t2, cens)
  list(x = x, time = time, cause = ifelse(cens < pmin(t1, t2), 0L, ifelse(t1 <= t2, 1L, 2L)))
}

composite <- function(time, cause, left) {
  sum(vapply(1:2, function(k) {
    if (!any(cause == k)) return(0)
    survival::survdiff(survival::Surv(time, cause == k) ~ left)$chisq
  }, 0))
}
gray <- function(time, cause, left) {
  tst <- tryCatch(cmprsk::cuminc(time, cause, group = left, cencode = 0)$Tests, error = function(e) NULL)
  if (is.null(tst)) 0 else sum(tst[, "stat"])
}

aj_cif1 <- function(time, cause, horizon) {
  ci <- cmprsk::cuminc(time, cause, cencode = 0)
  if (!"1 1" %in% names(ci)) return(0)
  cmprsk::timepoints(ci, horizon)$est["1 1", 1]
}

grow <- function(x, time, cause, rows, rule, horizon, depth = 0) {
  leaf <- list(risk = aj_cif1(time[rows], cause[rows], horizon))
  if (length(rows) < 40 || sum(cause[rows] > 0) < 4) return(leaf)
  best <- list(stat = 0)
  for (j in sample.int(ncol(x), 3)) {
    v <- x[rows, j]
    for (cut in unique(stats::quantile(v, seq(0.1, 0.9, 0.1), names = FALSE))) {
      left <- v <= cut
      if (sum(left) < 20 || sum(!left) < 20) next
      s <- rule(time[rows], cause[rows], left)
      if (is.finite(s) && s > best$stat) best <- list(stat = s, j = j, cut = cut)
    }
  }
  if (best$stat <= 0) return(leaf)
  l <- rows[x[rows, best$j] <= best$cut]
  list(j = best$j, cut = best$cut, left = grow(x, time, cause, l, rule, horizon, depth + 1),
       right = grow(x, time, cause, setdiff(rows, l), rule, horizon, depth + 1))
}
predict_tree <- function(tree, x) {
  vapply(seq_len(nrow(x)), function(i) {
    node <- tree
    while (is.null(node$risk)) node <- if (x[i, node$j] <= node$cut) node$left else node$right
    node$risk
  }, 0)
}
wolbers <- function(risk, time, cause, k = 1) {
  num <- den <- 0
  for (i in which(cause == k)) {
    j <- time > time[i] | (cause != k & cause != 0 & time <= time[i] & seq_along(time) != i)
    den <- den + sum(j)
    num <- num + sum(risk[i] > risk[j]) + 0.5 * sum(risk[i] == risk[j])
  }
  num / den
}

res <- NULL
for (r in first - 1L + seq_len(reps)) {
  d <- simulate(800, 100 + r)
  tr <- 1:400
  te <- 401:800
  horizon <- stats::median(d$time[tr][d$cause[tr] > 0])
  for (rule_name in c("composite_logrank", "gray")) {
    rule <- if (rule_name == "gray") gray else composite
    set.seed(r)
    t0 <- proc.time()[["elapsed"]]
    risk <- rowMeans(vapply(seq_len(n_trees), function(b) {
      tree <- grow(d$x, d$time, d$cause, sample(tr, replace = TRUE), rule, horizon)
      predict_tree(tree, d$x[te, , drop = FALSE])
    }, numeric(length(te))))
    res <- rbind(res, data.frame(rep = r, rule = rule_name, cindex_c1 = wolbers(risk, d$time[te], d$cause[te]),
                                 seconds = proc.time()[["elapsed"]] - t0))
    say(sprintf("rep %d %-18s C1 %.4f  %.1fs\n", r, rule_name, utils::tail(res$cindex_c1, 1), utils::tail(res$seconds, 1)))
  }
}
say("\nmeans over reps:\n")
print(stats::aggregate(cbind(cindex_c1, seconds) ~ rule, data = res, FUN = mean), digits = 4, row.names = FALSE)

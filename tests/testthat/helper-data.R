# Small data generators shared by the tests.

# "XOR of linear problems": the predictors are uniform on [-1, 1]^p. The first
# two predictors cut the space into four quadrants; inside each quadrant the
# class is decided by a different linear boundary (a different direction, in
# all p predictors, and opposite orientations in neighbouring quadrants). No
# single hyperplane separates the classes, but each quadrant is linearly
# separable, which is the case random support vector trees are made for.
xor_linear <- function(n, p = 2, noise = 0, seed = 1) {
  stopifnot(p >= 2)
  withr_seed(seed, {
    x <- matrix(stats::runif(n * p, -1, 1), n, p)
    colnames(x) <- paste0("x", seq_len(p))
    quadrant <- 1L + (x[, 1] > 0) + 2L * (x[, 2] > 0)
    # one boundary direction per quadrant (fixed, so the problem is the same
    # for every seed); the extra predictors also enter the boundaries
    w <- rbind(c(1, -2), c(-2, -1), c(2, 1), c(-1, 2))
    extra <- if (p > 2) matrix(rep(c(0.5, -0.5, 0.5, -0.5), p - 2), 4, p - 2) else NULL
    w <- cbind(w, extra)
    centre <- cbind(c(-0.5, 0.5, -0.5, 0.5), c(-0.5, -0.5, 0.5, 0.5))
    score <- rowSums(w[quadrant, 1:2, drop = FALSE] * (x[, 1:2] - centre[quadrant, , drop = FALSE]))
    if (p > 2) score <- score + rowSums(w[quadrant, -(1:2), drop = FALSE] * x[, -(1:2), drop = FALSE])
    if (noise > 0) score <- score + stats::rnorm(n, sd = noise)
    y <- factor(ifelse(score > 0, "pos", "neg"), levels = c("neg", "pos"))
    list(x = x, y = y, quadrant = quadrant)
  })
}

# The same as a data frame with the outcome in column `y`.
xor_linear_df <- function(n, p = 2, noise = 0, seed = 1) {
  d <- xor_linear(n, p, noise, seed)
  data.frame(d$x, y = d$y)
}

# Data frame with a numeric, a factor and a character predictor and a
# two-class outcome that depends on all three.
mixed_df <- function(n = 200, seed = 1) {
  withr_seed(seed, {
    a <- stats::rnorm(n)
    f <- factor(sample(c("p", "q", "r"), n, replace = TRUE))
    ch <- sample(c("s", "t"), n, replace = TRUE)
    y <- factor(ifelse(a + 1.5 * (f == "q") - 1.5 * (f == "r") + (ch == "s") > 0.5, "yes", "no"))
    data.frame(a = a, f = f, ch = ch, y = y, stringsAsFactors = FALSE)
  })
}

# Runs `code` with R's generator set to `seed`, restoring the caller's state.
withr_seed <- function(seed, code) {
  had <- exists(".Random.seed", envir = globalenv(), inherits = FALSE)
  if (had) old <- get(".Random.seed", envir = globalenv(), inherits = FALSE)
  on.exit(if (had) assign(".Random.seed", old, envir = globalenv())
          else rm(".Random.seed", envir = globalenv()))
  set.seed(seed)
  code
}

# Accuracy of predicted classes.
accuracy <- function(pred, truth) mean(as.character(pred) == as.character(truth))

# Leaves of each tree of a fitted model.
n_leaves <- function(fit) vapply(fit$forest$trees, tree_n_leaves, 0L)

# Five signal predictors among many noise ones: each tree is weak, so the
# forest keeps improving well past 100 trees.
weak_trees_data <- function(n, seed) {
  withr_seed(seed, {
    x <- matrix(stats::rnorm(n * 200), n)
    y <- factor(ifelse(rowSums(x[, 1:5]) + stats::rnorm(n) > 0, "a", "b"))
    list(x = x, y = y)
  })
}

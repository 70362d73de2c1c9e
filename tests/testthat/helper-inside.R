# Data and a table walker for the tests of svforest_tree(), plot(tree =)
# and svforest_sql().

# Classes from numeric, heavy-tailed and factor columns with missing values.
inside_class_data <- function(n, seed = 1) {
  withr::with_seed(seed, {
    d <- data.frame(x1 = rnorm(n), x2 = rexp(n)^3, f = factor(sample(c("a", "b", "c"), n, TRUE)),
                    x3 = runif(n), g = sample(c("u", "v"), n, TRUE), stringsAsFactors = FALSE)
    score <- d$x1 + (d$f == "b") - 0.8 * (d$f == "c") + 2 * d$x3 + 0.3 * (d$g == "v") + rnorm(n, sd = 0.3)
    d$y <- factor(cut(score, c(-Inf, 0.3, 1.4, Inf), labels = c("lo", "mid", "hi")))
    d$x1[sample(n, n %/% 12)] <- NA
    d$x3[sample(n, n %/% 15)] <- NA
    d$f[sample(n, n %/% 20)] <- NA
    d
  })
}

inside_regression_data <- function(n, seed = 2) {
  withr::with_seed(seed, {
    d <- data.frame(x1 = rnorm(n), x2 = runif(n), f = factor(sample(c("a", "b", "c"), n, TRUE)))
    d$y <- 2 * d$x1 - d$x2 + (d$f == "b") + rnorm(n, sd = 0.2)
    d$x1[sample(n, n %/% 10)] <- NA
    d$f[sample(n, n %/% 15)] <- NA
    d
  })
}

# predict() rebuilt from svforest_tree() tables alone (and the values the
# trees read, svforest_design()): type "prob" (and the class) or "response".
tree_values <- function(fit, values, t) {
  m <- svforest_design(fit)
  for (j in which(m$type == "factor_code")) {
    cod <- unname(svforest_factor_coding(fit, m$variable[j], tree = t))
    x <- values[, m$term[j]]
    values[, m$term[j]] <- ifelse(!is.na(x) & x >= 1 & x <= length(cod), cod[pmax(1, pmin(length(cod), x))], x)
  }
  values
}

walk_tables <- function(fit, newdata) {
  values <- svforest_design(fit, newdata)
  n <- nrow(values)
  regression <- identical(fit$type, "regression")
  lev <- fit$levels
  total <- if (regression) numeric(n) else matrix(0, n, length(lev), dimnames = list(NULL, lev))
  grid <- total
  for (t in seq_along(fit$forest$trees)) {
    tab <- svforest_tree(fit, t)
    # the design holds a coded factor's level CODE; each tree reads its own
    # value of the level (svforest_factor_coding(fit, v, tree = t))
    vt <- tree_values(fit, values, t)
    node <- rep(1L, n)
    repeat {
      inner <- which(tab$kind[node] != "leaf")
      if (!length(inner)) break
      for (i in unique(node[inner])) {
        rows <- inner[node[inner] == i]
        w <- tab$terms[[i]]
        s <- 0
        for (k in seq_along(w)) s <- s + w[[k]] * vt[rows, names(w)[k]]
        node[rows] <- ifelse(s <= tab$threshold[i], tab$left[i], tab$right[i])
      }
    }
    tree_pred <- walk_leaves(tab, node, values, regression, lev)
    total <- total + tree_pred
    if (!regression) grid <- grid + round(tree_pred * 2^32) / 2^32
  }
  if (regression) return(list(response = total / length(fit$forest$trees)))
  list(prob = total / length(fit$forest$trees), class = factor(lev[max.col(grid, "first")], levels = lev))
}

# Each row's leaf prediction: constant leaves their value, linear leaves
# their score (regression) or the class it picks (one-hot).
walk_leaves <- function(tab, node, values, regression, lev) {
  n <- length(node)
  out <- if (regression) numeric(n) else matrix(0, n, length(lev))
  for (i in unique(node)) {
    rows <- which(node == i)
    w <- tab$coefficients[[i]]
    if (is.null(w)) {
      v <- tab$prediction[[i]]
      if (regression) out[rows] <- v else out[rows, ] <- rep(v, each = length(rows))
      next
    }
    score <- sweep(values[rows, rownames(w), drop = FALSE] %*% w, 2, tab$intercept[[i]], "+")
    if (regression) { out[rows] <- score[, 1]; next }
    cls <- attr(w, "classes")
    pick <- if (length(cls) == 2) ifelse(score[, 1] > 0, cls[2], cls[1]) else cls[max.col(score, "first")]
    out[cbind(rows, match(pick, lev))] <- 1
  }
  out
}

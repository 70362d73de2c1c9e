# Calibration of class probabilities: a map per class from the forest's
# probability to a calibrated one, fitted on held-out rows, stored in the
# model as plain numbers and applied by predict(type = "prob").

#' Calibrate a forest's class probabilities
#'
#' Fits a calibration map per class (one class against the others) from the
#' forest's probabilities (`predict(type = "prob")`) on labelled rows the
#' forest did not see, and stores it in the model: `predict(type = "prob")`
#' then returns calibrated probabilities (the maps' outputs, divided by their
#' row sums). Class predictions (`type = "class"`, `"votes"`) do not change.
#'
#' Forests whose leaves give hard or coarse probabilities benefit most: a
#' TD-SVM tree's kernel SVM leaves give one class (probability 1), a few RSVT
#' trees give a few distinct values. `"platt"` fits a logistic curve on the
#' log-odds of the probability (Platt's targets (n+ + 1) / (n+ + 2) and
#' 1 / (n- + 2), which keep it finite on separable data); `"isotonic"` a
#' non-decreasing step function (pool adjacent violators, `stats::isoreg()`,
#' interpolated linearly), which needs more rows (some hundreds per class).
#' Both map each class on its own (one against the others), so with more
#' than two classes the most probable class can change. `"temperature"`
#' makes the probabilities proportional to `p^a` with one `a` for all
#' classes (temperature scaling), which never changes the most probable
#' class: the choice for many classes and for forests of one tree.
#'
#' `svforest(..., calibrate = "platt")` does this at fit time on a
#' stratified `calibration_fraction` share of the training rows (default
#' 0.25, drawn from `seed`), which the trees then do not see; calibrating
#' afterwards with `svforest_calibrate()` on data of your own lets the trees
#' use every training row.
#'
#' A regression forest is calibrated for prediction intervals instead
#' (`method = "conformal"`, its default and only method): the conformal
#' shifts of the quantile forest's quantiles, computed on the held-out rows,
#' are stored in the model, and `predict(type = "interval")` and
#' `"quantiles"` use them (see the section "Prediction intervals and
#' quantiles" of [predict.svforest()]). They replace the fit's own
#' calibration (by default from out-of-bag rows). This lets the trees use
#' every training row, where `svforest(..., calibrate = "conformal")` holds
#' some out.
#'
#' @param object An `svforest` model.
#' @param x,y Held-out predictors (as for [predict.svforest()]) and their
#'   classes (a factor or character vector with the model's levels), or outcomes (numbers) for a regression forest. Rows the
#'   forest was trained on give over-confident maps.
#' @param method `"platt"` (default), `"temperature"` or `"isotonic"`;
#'   `"none"` removes a calibration. Regression: `"conformal"` (default) or
#'   `"none"`.
#' @param num_threads As for [predict.svforest()].
#' @return The model with element `calibration`.
#' @examples
#' set.seed(1)
#' i <- sample(150, 100)
#' fit <- svforest(Species ~ ., iris[i, ], method = "tdsvm", seed = 1, num_threads = 1)
#' cal <- svforest_calibrate(fit, iris[-i, 1:4], iris$Species[-i])
#' head(predict(cal, iris[-i, ], type = "prob"))
#' @export
svforest_calibrate <- function(object, x, y, method = c("platt", "temperature", "isotonic", "none"),
                               num_threads = NULL) {
  check_model(object)
  if (identical(model_family(object)$calibration_stage, "conformal")) {
    return(calibrate_conformal(object, x, y, method, num_threads))  # R/uncertainty.R
  }
  if (identical(method, c("platt", "temperature", "isotonic", "none"))) method <- "platt"
  method <- check_choice(method, "method", c("platt", "temperature", "isotonic", "none"))
  if (method == "none") {
    object$calibration <- NULL
    return(object)
  }
  if (missing(x) || missing(y)) stop("Calibration needs held-out rows: give `x` and `y`.", call. = FALSE)
  object$calibration <- NULL
  yi <- importance_outcome(object, y, NROW(x)) + 1L  # checks y (R/importance.R)
  prob <- stats::predict(object, x, type = "prob", num_threads = num_threads)
  object$calibration <- fit_calibration(prob, yi, method)
  object
}

# The maps of `method` for probabilities `prob` (rows x classes) of rows
# whose classes are `yi` (1-based).
fit_calibration <- function(prob, yi, method) {
  if (method == "temperature") return(list(method = method, rows = length(yi), a = temperature_fit(prob, yi)))
  K <- ncol(prob)
  maps <- lapply(seq_len(K), function(k) {
    hit <- as.numeric(yi == k)
    if (method == "platt") platt_map(prob[, k], hit) else isotonic_map(prob[, k], hit)
  })
  list(method = method, rows = length(yi), maps = maps)
}

# Platt scaling on the log-odds of p (clamped to [1e-4, 1 - 1e-4]): a and b of
# 1 / (1 + exp(-(a * logit(p) + b))), maximising the likelihood of Platt's
# targets.
platt_map <- function(p, hit) {
  z <- platt_logit(p)
  n_pos <- sum(hit)
  n_neg <- length(hit) - n_pos
  target <- ifelse(hit > 0, (n_pos + 1) / (n_pos + 2), 1 / (n_neg + 2))
  # the negative log-likelihood, from the linear score f (stable for large |f|)
  loss <- function(ab) {
    f <- ab[1] * z + ab[2]
    sum(target * -stats::plogis(f, log.p = TRUE) + (1 - target) * -stats::plogis(-f, log.p = TRUE))
  }
  # Newton's method with backtracking (Lin, Lin and Weng's start and steps)
  ab <- c(0, log((n_neg + 1) / (n_pos + 1)) * -1)
  current <- loss(ab)
  for (iter in 1:100) {
    q <- stats::plogis(ab[1] * z + ab[2])
    g <- c(sum((q - target) * z), sum(q - target))
    w <- q * (1 - q)
    H <- matrix(c(sum(w * z * z), sum(w * z), sum(w * z), sum(w)), 2) + diag(1e-12, 2)
    step <- solve(H, g)
    t <- 1
    while (t >= 1e-10) {
      proposal <- ab - t * step
      value <- loss(proposal)
      if (value < current + 1e-4 * t * sum(g * -step)) break
      t <- t / 2
    }
    if (t < 1e-10) break
    ab <- proposal
    done <- abs(current - value) < 1e-12 * (1 + abs(current))
    current <- value
    if (done || max(abs(g)) < 1e-8) break
  }
  list(a = ab[1], b = ab[2])
}

platt_logit <- function(p) stats::qlogis(pmin(pmax(p, 1e-4), 1 - 1e-4))

# Isotonic regression of hit on p: the fitted step values at the distinct
# sorted probabilities (interpolated linearly in between, constant outside),
# within [1 / (n + 2), (n + 1) / (n + 2)].
isotonic_map <- function(p, hit) {
  o <- order(p)
  fit <- stats::isoreg(p[o], hit[o])
  ux <- unique(p[o])  # sorted
  knots <- vapply(split(fit$yf, match(p[o], ux)), mean, 0)
  # kept off 0 and 1 as Platt's targets are (a step of rows without a hit
  # would otherwise give probability 0, and an infinite log-loss)
  n <- length(hit)
  list(x = ux, y = pmin(pmax(as.numeric(knots), 1 / (n + 2)), (n + 1) / (n + 2)))
}

# Temperature scaling: probabilities proportional to p^a (log p clamped at
# log 1e-4), a chosen by the log-likelihood of the rows' classes; the most
# probable class never changes.
temperature_log <- function(prob) log(pmin(pmax(prob, 1e-4), 1))

temperature_apply <- function(prob, a) {
  z <- a * temperature_log(prob)
  z <- z - apply(z, 1, max)
  e <- exp(z)
  e / rowSums(e)
}

temperature_fit <- function(prob, yi) {
  z <- temperature_log(prob)
  picked <- z[cbind(seq_along(yi), yi)]
  loss <- function(log_a) {
    a <- exp(log_a)
    za <- a * z
    m <- apply(za, 1, max)
    -mean(a * picked - m - log(rowSums(exp(za - m))))
  }
  exp(stats::optimize(loss, c(log(1e-3), log(1e3)), tol = 1e-8)$minimum)
}

# Calibrated probabilities: every class's map, divided by the row sums (a
# row whose maps all give 0 keeps its probabilities); or temperature scaling.
apply_calibration <- function(prob, calibration) {
  if (calibration$method == "temperature") return(temperature_apply(prob, calibration$a))
  out <- prob
  for (k in seq_len(ncol(prob))) {
    m <- calibration$maps[[k]]
    out[, k] <- if (calibration$method == "platt") {
      stats::plogis(m$a * platt_logit(prob[, k]) + m$b)
    } else if (length(m$x) == 1) {
      rep(m$y, nrow(prob))
    } else {
      stats::approx(m$x, m$y, xout = prob[, k], rule = 2, ties = "ordered")$y
    }
  }
  s <- rowSums(out)
  keep <- !(s > 0)
  out <- out / ifelse(keep, 1, s)
  out[keep, ] <- prob[keep, ]
  out
}

# A model's calibration, checked (check_model()): NULL or the structure
# fit_calibration() makes.
calibration_ok <- function(cal, K) {
  if (is.null(cal)) return(TRUE)
  num_ok <- function(v, len = NULL) is.numeric(v) && !anyNA(v) && all(is.finite(v)) && (is.null(len) || length(v) == len)
  if (is.list(cal) && identical(cal$method, "temperature")) return(num_ok(cal$a, 1) && cal$a > 0)
  if (!is.list(cal) || !is.list(cal$maps) || length(cal$maps) != K ||
      !identical(cal$method, "platt") && !identical(cal$method, "isotonic")) return(FALSE)
  all(vapply(cal$maps, function(m) {
    if (cal$method == "platt") num_ok(m$a, 1) && num_ok(m$b, 1)
    else num_ok(m$x) && num_ok(m$y) && length(m$x) == length(m$y) && length(m$x) >= 1 && !is.unsorted(m$x)
  }, TRUE))
}

# The calibration stage's methods of class probabilities.
calibration_methods <- c("none", "platt", "temperature", "isotonic")

# svforest(..., calibrate = ): the held-out rows (a stratified share of each
# class, drawn from the seed's stream), or NULL for no calibration.
calibration_rows <- function(calibrate, fraction, y, outcome, seed) {
  # the family says which values apply to it (R/family-*.R)
  calibrate <- svf_registry$families[[outcome]]$calibration_method(calibrate, fraction)
  calibrate <- check_choice(calibrate, "calibrate", calibration_methods)
  if (calibrate == "none") return(NULL)
  fraction <- if (is.null(fraction)) 0.25 else fraction
  if (!is.numeric(fraction) || length(fraction) != 1 || is.na(fraction) || fraction <= 0 || fraction >= 1) {
    stop("`calibration_fraction` must be a number between 0 and 1 (exclusive).", call. = FALSE)
  }
  held <- with_seed(seed, unlist(lapply(split(seq_along(y), y), function(i) {
    i[sample.int(length(i), floor(fraction * length(i) + 0.5))]
  }), use.names = FALSE))
  if (length(held) < 2 || length(held) > length(y) - 2) {
    stop(sprintf("`calibration_fraction = %s` leaves %d of %d rows for calibration; it needs at least 2, and 2 to fit.",
                 format(fraction), length(held), length(y)), call. = FALSE)
  }
  list(method = calibrate, held = sort(held))
}

# Evaluates expr with R's generator set from seed, restoring the caller's.
with_seed <- function(seed, expr) {
  old <- if (exists(".Random.seed", globalenv(), inherits = FALSE)) get(".Random.seed", globalenv())
  on.exit(if (is.null(old)) rm(".Random.seed", envir = globalenv()) else assign(".Random.seed", old, globalenv()))
  set.seed(seed %% .Machine$integer.max)
  expr
}


#' @include family.R
NULL

#' Predict with a support vector forest
#'
#' @param object A fitted [svforest()] model.
#' @param newdata New predictors: a data frame (columns matched by name), a
#'   numeric matrix or a `dgCMatrix` (matched by column name when both have
#'   names, else by position). Without `newdata`, the training rows'
#'   out-of-bag predictions (as ranger's `fit$predictions`; `NA` for a row
#'   no tree left out; rows of case weight 0 are not in the model): the
#'   out-of-bag class (`"class"`, by the model's aggregation), the averaged
#'   leaf distributions (`"prob"`, without a calibration stage) or tree
#'   votes (`"votes"`), the out-of-bag mean (`"response"`), for a
#'   survival forest every type but `"leaf"` and `"trees"`, and for a
#'   competing-risks forest `"cif"`, `"survival"` and `"risk"`. A sampler that
#'   uses every row (`sampler = "all"`) leaves none out: `newdata` is then
#'   required, as for `"leaf"`, `"trees"`, `"local"`, `"quantiles"` and
#'   `"interval"`.
#' @param type Classification: `"class"` (factor, the default), `"prob"`
#'   (n x K matrix of averaged leaf distributions, rows sum to 1; calibrated
#'   when the model holds a calibration, see [svforest_calibrate()]), `"votes"`
#'   (n x K matrix of tree votes), `"leaf"` (n x ntree matrix of leaf
#'   numbers, starting at 1: column `k` holds the `leaf` column of
#'   [svforest_tree()]`(object, k)`, so
#'   `tab[match(leaves[, k], tab$leaf), ]` are the rows' leaves), or `"local"` (local linear explanations, see
#'   below). Regression (a numeric outcome): `"response"` (numeric vector,
#'   the trees' predictions averaged; the default), `"leaf"` or `"local"`
#'   (with ridge or linear SVR leaves: coefficients per unit of each
#'   predictor, in units of the outcome), `"trees"` (n x ntree matrix of
#'   each tree's prediction, on the outcome's scale), `"quantiles"` (n x
#'   `length(quantiles)` matrix, columns named like `"quantile_0.05"`) or
#'   `"interval"` (n x 3 matrix `fit`, `lower`, `upper`, with attribute
#'   `level`); see "Prediction intervals and quantiles". For classification
#'   `"trees"` gives each tree's predicted class as an n x ntree integer
#'   matrix of level numbers (1 = the first level; attribute `levels`).
#'   Survival (a `Surv` outcome, [svforest_survival]): `"survival"` (the
#'   default) and `"chf"` (n x `length(times)` matrices of survival
#'   probabilities and cumulative hazards, columns named by `times` in the
#'   order given), `"risk"` (the sum of the cumulative hazard over the
#'   training event times; higher means an earlier event) and `"time"` (the
#'   mean survival time restricted to the largest training time); the
#'   matrices carry their times as attribute `times` (with the default
#'   `times`, ranger's `unique.death.times`), and `times` past the last
#'   training event time give a warning (the curves are flat there).
#'   `"leaf"` (n x ntree leaf numbers, as for the other outcomes) and
#'   `"trees"` (n x `length(times)` x ntree array of each tree's survival
#'   probabilities, as ranger's `predict.all = TRUE`; their cumulative
#'   hazards `-log(S)` average to the forest's) also take survival forests.
#'   Competing risks (an event factor, [svforest_competing]): `"cif"` (the
#'   default; each cause's cumulative incidence, an n x `length(times)` x
#'   causes array, or a matrix for one `cause`), `"chf"` (each cause's
#'   cumulative hazard, the same shapes), `"survival"` (event-free, n x
#'   `length(times)`), `"risk"` (each cause's expected time lost up to the
#'   last training event time, n x causes, or a vector for one `cause`) and
#'   `"leaf"`.
#' @param num_threads Threads, as in [svforest()].
#' @param quantiles Quantile levels for `type = "quantiles"`: numbers strictly
#'   between 0 and 1 (default `c(0.05, 0.5, 0.95)`).
#' @param level Coverage of `type = "interval"`: one number strictly between
#'   0 and 1 (default 0.9).
#' @param na_action What missing predictor values in `newdata` do: `NULL`
#'   (default) the model's `na_action`; `"impute"` fills them in the way the
#'   model was fitted, with a warning naming the columns (a model fitted
#'   with `na_action = "fail"` cannot); `"fail"` makes them an error. See
#'   [svforest_missing_values].
#' @param ... `times` for `type = "survival"` and `"chf"` (and a
#'   competing-risks forest's `"cif"`): numbers >= 0 in any order (default:
#'   the training event times); `cause` for a competing-risks forest's
#'   `"cif"`, `"chf"` and `"risk"`: one cause, its label or number (default:
#'   every cause). Any other argument here
#'   is an error (a misspelt argument must not be silently ignored). ranger's names `data`, `num.threads`,
#'   `predict.all` and `nodes` are errors that name svforest's equivalent
#'   (`newdata`, `num_threads`, `type = "trees"`, `type = "leaf"`), and so
#'   are `eval_time` (tidymodels), `pred_horizon` (aorsf) and `time`
#'   (`times`).
#' @return See `type`.
#' @details An SVM leaf contributes its predicted class (a one-hot vector) to
#'   the averaged probabilities and a constant leaf its class frequencies.
#'   With `aggregation = "vote"` the class is the majority vote, ties broken
#'   by the averaged probabilities, then by level order. With
#'   `aggregation = "max_confidence"` it is the class of the tree whose leaf
#'   is most confident: the SVM decision value of the leaf's predicted class
#'   (`|w'x|` for a binary leaf, the largest one-vs-rest value otherwise), or
#'   `2 f - 1` for a leaf with class frequencies (`f` its majority share);
#'   the first such tree on ties. `"prob"` and `"votes"` are the same for
#'   every aggregation. To decide the class, each tree's probabilities are
#'   rounded to a multiple of 2^-32 before they are summed, so the sums do not
#'   depend on the order of the trees (a forest combined from parts decides
#'   as the forest grown whole). The out-of-bag classes of a fit
#'   (`oob_predictions`) follow this same rule, applied to each row's
#'   out-of-bag trees.
#'
#'   Large `newdata` is predicted in chunks of rows (about 2^22 values each;
#'   option `svforest.predict_chunk_rows` sets the rows per chunk), so the
#'   memory beyond `newdata` and the result does not grow with the number of
#'   rows. The result does not depend on the chunk size.
#'
#'   Missing values in `newdata` are filled in the way the model was fitted
#'   (`na_action = "impute"`, the default of [svforest()]: training medians,
#'   the `"(missing)"` level or the most frequent training level of a
#'   factor; see [svforest_missing_values]), with one warning per call
#'   naming the columns that hold them; `na_action = "fail"` makes them an
#'   error instead. For a model fitted with `na_action = "fail"` (or by a
#'   version without `na_action`) they are an error.
#'
#'   Bad `newdata` is an error naming the column: a predictor missing from
#'   `newdata`, infinite values, factor levels unseen in training,
#'   a character or factor column where the model had a numeric one. Columns
#'   are matched by name (their order does not matter; extra columns are
#'   ignored), and by position only when the model or `newdata` has no
#'   column names. `newdata` with zero rows gives a result with zero rows.
#' @section Prediction intervals and quantiles (regression):
#'   `type = "quantiles"` and `"interval"` start from the forest's
#'   conditional distribution of the outcome (a quantile regression forest,
#'   Meinshausen 2006): a new row gives each training row the weight
#'   `1 / (ntree * m)` for every tree where both reach the same leaf of `m`
#'   training rows (every training row counts, in bag or not), and its
#'   quantile at level `tau` is where the weighted training outcomes reach
#'   `tau`. Each distinct training outcome's weight is spread over a
#'   twentieth of the gap to its neighbouring outcomes, so the distribution
#'   has no atoms: quantiles of discrete outcomes (grades, counts) fall just
#'   beside the outcome values, which lets a calibrated interval cover its
#'   `level` rather than every row of the grades at its ends. Every
#'   regression fit stores the leaves of its training rows for this
#'   (`ntree` integers per training row in the model's `conformal` element).
#'   The interval at `level` is the pair of quantiles `(1 - level) / 2` and
#'   `(1 + level) / 2`, with the forest's prediction as `fit`. Quantiles never
#'   cross (a level's quantile is at least the lower levels').
#'
#'   Without a calibration (`calibrate = "none"`, or a sampler that leaves
#'   no row out) these are the quantile forest's own quantiles: consistent
#'   under Meinshausen's assumptions as the data grow, with no guarantee at a
#'   given size (too narrow where leaves are small and the outcome noisy, too
#'   wide elsewhere). A calibration (conformalized quantile
#'   regression, Romano, Patterson and Candes 2019, one level at a time)
#'   makes them conformal: for each level `tau` of a grid (0.001, 0.0025,
#'   0.005 to 0.995 in steps of 0.005, 0.9975, 0.999), calibration rows the
#'   trees did not see score `y - q_tau(x)`; with `n` scores the level's
#'   shift is the k-th smallest, `k = ceiling(tau (n + 1))` for `tau >= 0.5`
#'   and `floor(tau (n + 1))` below, and it is added to the quantile forest's
#'   quantile of every new row (`Inf` or `-Inf` when `k` falls outside 1..n:
#'   too few calibration rows for that level, with a warning saying how
#'   many the level needs). A level between the grid's
#'   is taken outward (to the grid level below for `tau < 0.5`, above
#'   otherwise), so the guarantee holds for it too.
#'
#'   The guarantee of a calibration: when the calibration rows and the new
#'   row are exchangeable (for instance drawn independently from the same
#'   distribution) and the trees did not use the calibration rows, the new
#'   outcome lies at or below the quantile at `tau >= 0.5` with probability
#'   at least `tau`, below the quantile at `tau < 0.5` with probability at
#'   most `tau`, and inside the interval with probability at least `level`
#'   (about `level` plus `2 / (n + 1)` at most when scores have no ties).
#'   The probability is over the calibration rows and the new row together
#'   (marginal coverage), not for every value of the predictors; it says
#'   nothing when new data come from another distribution.
#'
#'   Where the calibration rows come from:
#'   \describe{
#'   \item{`svforest(...)` (the default, also `calibrate = "oob"`)}{out of
#'     bag, when the sampler leaves rows out (`"bootstrap"`, `"subsample"`):
#'     every training row is scored by its quantiles from the trees it was out
#'     of bag in, its own outcome left out of their leaves, so that it stands
#'     to those trees as a new row would (conformalized quantile regression
#'     with out-of-bag quantiles, after the jackknife+-after-bootstrap of Kim,
#'     Xu and Barber 2020). It costs no extra forest, about three quantile
#'     predictions of the training rows. The guarantee is approximate: a row's
#'     score comes from the part of the forest it was out of bag in (about a
#'     third of the trees with the bootstrap, a fifth with the default's
#'     choosing rows), whose quantiles are noisier than a new row's from the
#'     whole forest; so the scores are also read with each half of those
#'     trees (even- and odd-numbered), and the share of scores below each
#'     value, which for `t` trees moves as `a + c / t`, is carried to the
#'     forest's size before each level's shift is read from it (a share, not
#'     the shift itself, so that scores piled up at a floor or on tied
#'     grades are not overshot). It needs the out-of-bag
#'     rows to have taken no part in the trees; where they chose splits or
#'     trees (the engine reports it: [print()] then adds "optimistic" to the
#'     calibration's line) the scores are too small and the intervals too
#'     narrow. A fit whose sampler leaves no row out (`"all"`) stores no
#'     calibration.}
#'   \item{`svforest(..., calibrate = "cv")`}{cross-conformal: the
#'     forest is grown on every row, and five more
#'     forests, grown the same way on four fifths of the rows each (each
#'     with its own quantile forest of those rows), score the fifth they did
#'     not see, so every training row is a calibration row; the fit takes
#'     about six times as long. The scores come from forests of 80% of the
#'     rows while new rows get the forest of all rows, so the guarantee is
#'     approximate (CV+ theory, Barber, Candes, Ramdas and Tibshirani 2021,
#'     guarantees `1 - 2 (1 - level)` in the worst case). It suits methods
#'     whose out-of-bag rows choose splits, and samplers that leave none
#'     out.}
#'   \item{`svforest(..., calibrate = "conformal")`}{holds out a random
#'     `calibration_fraction` share of the training rows (default 0.25, drawn
#'     from `seed`) that the trees are not grown on: the guarantee above holds
#'     exactly, with fewer rows for the trees and for the calibration.}
#'   \item{[svforest_calibrate()]}{scores rows of your own that the forest
#'     did not see (exact guarantee; the trees keep every training row).}
#'   \item{`svforest(..., calibrate = "none")`}{no calibration: the quantile
#'     forest's own quantiles, as every regression fit gave before the
#'     out-of-bag default.}
#'   }
#'   A calibration belongs to the forest it was computed with: a [combine()]d
#'   forest (parts fitted with `first_tree`) refuses its parts' calibrations
#'   when asked for intervals or quantiles. The out-of-bag rows are not
#'   stored in the model, so it cannot be calibrated out of bag again:
#'   calibrate it with [svforest_calibrate()] on held-out rows, or remove the
#'   parts' calibration with `svforest_calibrate(model, method = "none")` for
#'   the quantile forest's own quantiles (its quantile forest combines when
#'   the parts were grown on the same rows).
#'
#' @section Scoring new data (survival):
#'   With test rows `test` and their outcome `Surv(time, status)`,
#'   Harrell's C of the risk is
#'   `survival::concordance(Surv(time, status) ~ risk, data = test, reverse = TRUE)`
#'   with `test$risk <- predict(fit, test, type = "risk")`; Uno's C (pairs
#'   weighted by the censoring distribution) adds `timewt = "n/G2"`. The
#'   Brier score at time `t` with inverse probability of censoring weights
#'   (Graf et al. 1999) is the mean over rows of `S(t)^2 / G(T-)` for an event
#'   at `T <= t`, `(1 - S(t))^2 / G(t)` for a row with `T > t`, and 0 for a
#'   row censored by `t`, with `S(t)` from `type = "survival", times = t`
#'   and `G` the Kaplan-Meier estimate of the censoring
#'   (`survival::survfit(Surv(time, 1 - status) ~ 1, data = test)`); the
#'   integrated Brier score averages it over a grid of times (the model's
#'   out-of-bag `oob_ibs` uses the event times up to their 75th percentile).
#'   Dividing by the Kaplan-Meier curve's own score gives the IPA (1 minus
#'   the ratio). yardstick's `concordance_survival()`, `brier_survival()`
#'   and `brier_survival_integrated()` compute these from predictions in
#'   tidymodels' format (censoring weights from
#'   `parsnip::.censoring_weights_graf()`).
#'
#' @section Local explanations (`type = "local"`):
#'   Every linear leaf (`leaf = "linear_svm"` or `"logistic"`: methods
#'   `"rsvt"`, `"rsvf"` and combinations with these leaves) is a linear model
#'   of the rows that reach it. For each row, the coefficients of the linear
#'   leaves it reaches are averaged over the trees whose leaf is linear, and
#'   reported per unit of the original predictors (the leaves' coefficients
#'   on the scaled predictors times the scaling factor; with
#'   `scale = "rank"` per unit of the predictors' ranks, and `centre` and
#'   the contributions are in rank units too). With two classes
#'   the coefficients push towards the second level; with more, there is
#'   one set per class: a one-vs-rest leaf gives its output of that class, a
#'   leaf that separates two classes a and b gives `+w` to b and `-w` to a,
#'   and a class without an output in a tree's leaf does not count for that
#'   tree. The result is a list of class `"svforest_local"`:
#'   `coefficients` (n x p matrix, or n x p x K array for more than two
#'   classes, one column per design column: an indicator coded factor has one per level),
#'   `contributions` (`coefficients * (x - centre)`), `trees` (the number of
#'   trees that contributed to each row, and class), `centre` (the training
#'   column means) and `class`. Rows whose trees all end in constant
#'   leaves get zero coefficients. Models without linear leaves (constant or
#'   kernel leaves only: the default `"hybrid"`, `"psvm"`, `"transform"`,
#'   `"tdsvm"`) give an error.
#'
#'   The name follows grf's local linear forests; `stats::predict.lm()`'s
#'   `type = "terms"` gives only the contributions, and the coefficients
#'   are the point here.
#' @examples
#' fit <- svforest(Species ~ ., data = iris, ntree = 5, seed = 1, num_threads = 1)
#' head(predict(fit, iris, type = "prob"))
#' table(predict(fit, iris), iris$Species)
#' # local explanations need linear leaves: the default's leaves are constant
#' rsvt <- svforest(Species ~ ., data = iris, method = "rsvt", ntree = 5, seed = 1, num_threads = 1)
#' loc <- predict(rsvt, iris[c(51, 101, 120), ], type = "local")
#' loc$coefficients[, , "versicolor"]
#' aq <- na.omit(airquality)
#' reg <- svforest(Ozone ~ ., data = aq, seed = 1, num_threads = 1)  # calibrated out of bag
#' predict(reg, aq[1:3, ], type = "interval", level = 0.8)
#' predict(reg, aq[1:3, ], type = "quantiles", quantiles = c(0.1, 0.5, 0.9))
#' @export
predict.svforest <- function(object, newdata,
                             type = c("class", "prob", "votes", "leaf", "local", "response", "trees", "quantiles",
                                      "interval"),
                             num_threads = NULL, quantiles = c(0.05, 0.5, 0.95), level = 0.9, na_action = NULL,
                             ...) {
  check_model(object)
  # the arguments of registered types come through `...` (e.g. `times`)
  dots <- list(...)
  taken <- type_arguments_given(dots, names(formals(predict.svforest)))  # R/family.R
  family <- model_family(object)
  do.call(check_no_dots, c(dots[!taken], list(.types = prediction_type_names(family$name))))
  if (identical(type, eval(formals(predict.svforest)$type))) type <- family$default_type
  spec <- prediction_type(type, family$name)  # the registered types (R/family.R)
  # arguments of other types must not be silently ignored
  given <- c(list(quantiles = if (!missing(quantiles)) quantiles, level = if (!missing(level)) level), dots[taken])
  for (arg in setdiff(names(Filter(Negate(is.null), given)), spec$args)) {
    users <- prediction_types_taking(arg, family$name)
    stop(sprintf("`%s` is used only with %s.", arg, paste0("type = \"", users, "\"", collapse = " or ")), call. = FALSE)
  }
  args <- c(list(quantiles = quantiles, level = level), dots[taken])[spec$args]
  names(args) <- spec$args
  if (!is.null(spec$check)) args <- spec$check(args)
  if (missing(newdata) || is.null(newdata)) {
    if (spec$name %in% c("leaf", "trees", "local", "quantiles", "interval")) {
      stop(sprintf("`type = \"%s\"` needs `newdata`: svforest models do not store their training data.", spec$name),
           call. = FALSE)
    }
    return(family$predict_oob(object, spec$name, args))  # out of bag (R/family-*.R)
  }
  num_threads <- engine_threads(resolve_threads(num_threads))
  check_newdata_missing(object, newdata, na_action)
  spec$run(object, newdata, args, num_threads)
}

# Error after 1, 2, ... trees on labelled data, each step by the rule of
# predict(type = "class").
error_curve <- function(object, newdata, y) {
  if (!(is.factor(y) || is.character(y)) || length(y) != NROW(newdata)) {
    stop(sprintf("`y` must be a factor or character vector with one value per row of `newdata` (%d), not %s.",
                 NROW(newdata), describe(y)), call. = FALSE)
  }
  bad <- is.na(y) | !as.character(y) %in% object$levels
  if (any(bad)) {
    stop(sprintf("`y` has %d values that are missing or not among the model's classes%s.", sum(bad),
                 if (any(!is.na(y[bad]))) paste0(" (", paste0('"', utils::head(unique(as.character(y[bad & !is.na(y)])), 3), '"', collapse = ", "), ")") else ""),
         call. = FALSE)
  }
  data <- new_engine_data(object, newdata)
  # the forest's class after each tree, by the model's aggregation (R/aggregation.R)
  res <- .svf_predict(object$forest, data, 1L, list(outputs = c("class", "class_curve"),
                                                    aggregation = object$params$aggregation))
  yi <- as.integer(factor(y, levels = object$levels)) - 1L
  colMeans(res$class_curve != yi)
}

# Missing predictor values of `newdata` (see the na_action parameter): an
# error with na_action = "fail", else one warning per predict() call naming
# the columns, before the rows are predicted in chunks. A model that cannot
# impute leaves the error to the design checks (new_engine_data()).
check_newdata_missing <- function(object, newdata, na_action) {
  model_imputes <- imputes(object$design)
  if (!is.null(na_action)) na_action <- check_choice(na_action, "na_action", c("impute", "fail"))
  else na_action <- if (model_imputes) "impute" else "fail"
  if (na_action == "impute" && !model_imputes) {
    stop("`na_action = \"impute\"`: this model was fitted with na_action = \"fail\" and stores no imputation.",
         call. = FALSE)
  }
  cols <- newdata_na_columns(object$design, newdata)
  if (!length(cols)) return(invisible())
  listed <- paste0(paste(utils::head(cols, 5), collapse = ", "), if (length(cols) > 5) ", ..." else "")
  plural <- if (length(cols) > 1) "s" else ""
  if (na_action == "fail") {
    if (!model_imputes) return(invisible())
    stop(sprintf("Missing values (NA/NaN) in `newdata` column%s %s (na_action = \"fail\").", plural, listed),
         call. = FALSE)
  }
  warning(sprintf("`newdata` has missing values in column%s %s; they are filled in as in training (see ?svforest_missing_values; na_action = \"fail\" makes them an error).",
                  plural, listed), call. = FALSE)
}

# The predictor columns of `newdata` the model uses that hold NA or NaN,
# named as in `newdata` ("column j" without names).
newdata_na_columns <- function(spec, newdata) {
  used <- if (identical(spec$type, "frame")) frame_input_names(spec)
          else if (!is.null(spec$input_ncol)) spec$input_names else spec$feature_names
  if (is.data.frame(newdata)) {
    used <- if (is.null(used)) names(newdata) else intersect(used, names(newdata))
    return(sprintf("`%s`", used[vapply(newdata[used], anyNA, NA)]))
  }
  if (inherits(newdata, "Matrix")) {
    newdata <- as_dgc(newdata)
    if (!anyNA(newdata@x)) return(character())
    cols <- unique(findInterval(which(is.na(newdata@x)) - 1, newdata@p, rightmost.closed = FALSE))
  } else {
    if (!is.matrix(newdata) || !anyNA(newdata)) return(character())
    cols <- which(colSums(is.na(newdata)) > 0)
  }
  nm <- colnames(newdata)
  if (is.null(nm)) return(sprintf("column %d", sort(cols)))
  cols <- sort(cols)
  if (!is.null(used)) cols <- cols[nm[cols] %in% used]
  sprintf("`%s`", nm[cols])
}

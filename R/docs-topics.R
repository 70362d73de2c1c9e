# Help pages of topics rather than functions (scaling, regression, weights,
# calibration, missing values, input handling): roxygen blocks only.

#' Predictor scaling in svforest()
#'
#' How [svforest()] scales predictors for its SVMs and oblique splits (parameter `scale`).
#'
#' @section Predictor scaling (`scale`):
#' \describe{
#' \item{`"minmax"` (default)}{each predictor is mapped to \[0, 1\] by its
#'   training minimum and maximum (dense input), or divided by its largest
#'   absolute value (a `dgCMatrix`: zeros stay zero). Affine, so oblique
#'   splits and local coefficients are reported in the predictors' own units.
#'   A few huge values squeeze the other rows of a predictor together.}
#' \item{`"rank"`}{each design column is replaced by its empirical
#'   distribution function on the training rows (mid-ranks: a value's share of
#'   training values below it plus half the share equal to it), then min-max
#'   scaled, so a 0/1 column (factor level, missingness indicator) stays 0/1.
#'   Values between two training values are interpolated linearly, values
#'   beyond the training range get the smallest or largest training value's
#'   rank. The map is stored in the model (at most 1,000 knots per column,
#'   evenly spaced in rank) and applied to every later input: `predict()`,
#'   validation and calibration rows, [svforest_importance()]. It depends only
#'   on the order of each predictor's values: outliers and heavy tails do not
#'   matter, and a strictly increasing transformation of a predictor (`log`,
#'   `sqrt`) gives the same model. It is computed after missing values are
#'   imputed, from the rows the trees are grown on (case weights do not
#'   weigh it). Oblique splits, coefficient importance and local explanations
#'   (`predict(type = "local")`: coefficients, contributions and `centre`)
#'   are then in rank units. Dense input only: a `dgCMatrix` is an error
#'   (ranks would turn its zeros into non-zero values). For method
#'   `"transform"`, which standardises predictors itself, `"rank"` is the
#'   one value that changes the fit.}
#' \item{`"auto"`}{`"rank"` for the columns a few extreme values would
#'   squeeze under min-max scaling (the central 90% of their training values,
#'   5% to 95% quantile, spans less than a quarter of their range),
#'   `"minmax"` for the others; a `dgCMatrix` is min-max scaled.}
#' \item{`"none"`}{the predictors as they are.}
#' }
#'
#' @seealso [svforest()], [svforest_methods()]
#' @name svforest_scaling
NULL

#' Regression forests
#'
#' A numeric outcome in [svforest()] fits a regression forest.
#'
#' @section Regression:
#' A numeric `y` (integer or double; a factor, character or logical `y` is
#' classification) fits a regression forest. The outcome is standardised
#' inside the model (mean and standard deviation; predictions are on the
#' original scale). Methods: `"hybrid"` (the default: axis cuts and ridge
#' hyperplanes chosen on out-of-bag rows, constant leaves, see
#' [svforest_methods()]), `"rsvf"` (out-of-bag scored oblique splits, the candidates judged by the
#' out-of-bag squared error of the children's ridge models with
#' `lambda = 1 / cost`, and ridge leaves), `"rsvt"` (random axis splits,
#' ridge leaves) and `"tdsvm"` (CART variance-reduction splits, RBF
#' epsilon-SVR leaves; `sigma`, `cost` and `gamma` chosen on validation data
#' by R-squared). `"psvm"` and `"transform"` are classification only. Leaves
#' for a numeric outcome: `"ridge"` (closed form, `lambda` chosen from a grid
#' by `cv_folds`-fold cross-validation inside the leaf; default grid
#' `10^(-3:1)`), `"linear_svr"` (LIBLINEAR's L2-loss SVR, primal solver,
#' `cost` chosen by cross-validation, tube `epsilon`), `"kernel_svr"`
#' (LIBSVM's RBF epsilon-SVR with `cost`, `gamma`, `epsilon`) and
#' `"constant"` (the mean). `epsilon` (default 0.1) is on the standardised
#' outcome. A leaf with a constant outcome predicts it, and so does a forest
#' fitted to a constant outcome. `predict()` gives `type = "response"`
#' (default) or `"leaf"`; the model holds the out-of-bag mean squared error
#' (`oob_error`), `oob_rsquared` and `oob_predictions` when the sampler
#' leaves rows out. Permutation importance is the increase of the mean
#' squared error ([svforest_importance()]); coefficient importance reads
#' ridge and linear SVR leaves. `predict(type = "trees")` gives each tree's
#' prediction, and `type = "interval"` and `"quantiles"` prediction
#' intervals and quantiles from the forest's leaf-weighted training outcomes
#' (a quantile regression forest, available from every fit), made conformal
#' by a calibration: by default from out-of-bag rows, or with `calibrate =
#' "cv"` or `"conformal"` (see [svforest_calibration]) or
#' [svforest_calibrate()] on held-out rows of your own.
#'
#' @seealso [svforest()], [svforest_methods()], [svforest_calibration]
#' @name svforest_regression
NULL

#' Case and class weights in svforest()
#'
#' `case_weights` and `class_weights` of [svforest()].
#'
#' @section Case and class weights:
#' `case_weights` (one finite, non-negative number per training row) and
#' `class_weights` (a positive number per class, named by the classes) weigh
#' the rows of the fit; a row's weight is its case weight times its class's
#' weight. They act through the rows each tree draws, as ranger's
#' `case.weights`: the `"bootstrap"` sampler draws rows with probability
#' proportional to the weights; the `"all"` sampler (and the parameter
#' search of `"tdsvm"`) repeats each row about weight / smallest weight
#' times (deterministic systematic sampling: integer weights whose smallest
#' is 1 repeat each row exactly that often; at most 10 copies per row on
#' average), and so does `"subsample"` with the rows it draws (as without
#' weights: drawing without replacement by weight could not make a row
#' count more than once). Every splitter and leaf model then sees the weights as row
#' multiplicities: RSVF's Newton solvers as row weights, LIBLINEAR and
#' LIBSVM as repeated rows. Rows of weight 0 are left out before the fit
#' (the model is the one fitted without them; `num_rows` and the
#' out-of-bag elements count only the rows used, and `rows_used` marks
#' them). Validation rows (`validation`, and the held-out share of
#' `"tdsvm"`) count once. Class weights replace the SVMs' class balancing
#' (`balanced` is then `FALSE`; giving both is an error). parsnip's case
#' weights and caret's `weights` are passed on as `case_weights`.
#'
#' @seealso [svforest()], [svforest_methods()]
#' @name svforest_weights
NULL

#' Calibrated probabilities and prediction intervals in svforest()
#'
#' `calibrate` and `calibration_fraction` of [svforest()]; see also [svforest_calibrate()].
#'
#' @section Calibrated probabilities:
#' `calibrate = "platt"`, `"temperature"` or `"isotonic"` holds out a stratified
#' `calibration_fraction` share of the training rows (default 0.25, drawn
#' from `seed`), grows the forest on the others and fits a calibration map
#' of the class probabilities on the held-out rows, which
#' `predict(type = "prob")` applies; see [svforest_calibrate()] (which
#' calibrates a fitted model on data of your own instead). `num_rows` and
#' the out-of-bag elements then count the rows the trees were grown on.
#'
#' @section Calibrated prediction intervals:
#' For a numeric outcome the default (`calibrate` not given, or `"oob"`)
#' calibrates from out-of-bag rows when the sampler leaves rows out: each
#' training row is scored by its quantiles from the trees it was out of bag
#' in, and the conformal shifts of these scores are stored in the model's
#' `conformal` element, at no extra forest. `calibrate = "none"` stores no
#' calibration (the quantile forest's own quantiles, as every regression fit
#' gave before this default). A sampler that leaves no row out (`"all"`, as
#' in the `"rsvt"`, `"psvm"` and `"tdsvm"` presets) has no out-of-bag rows,
#' and its fit stores no calibration either.
#' `calibrate = "conformal"` holds out a random
#' `calibration_fraction` share (default 0.25, drawn from `seed`) in the
#' same way and stores, in the model's `conformal` element, the conformal
#' shifts of the quantile forest's quantiles computed on the held-out rows,
#' for the prediction intervals and quantiles of [predict.svforest()]
#' (`type = "interval"`, `"quantiles"`). `calibrate = "cv"` holds none out:
#' the forest is grown on every row, and every row is scored by one of five
#' fold forests grown as the model was, on the other four folds
#' (cross-conformal, about six times the fit time).
#' A forest without a calibration gives the quantile forest's own quantiles
#' (no coverage guarantee), or is calibrated afterwards with
#' [svforest_calibrate()] on rows it did not see. See the section
#' "Prediction intervals and quantiles" of [predict.svforest()] for what
#' each calibration guarantees.
#'
#' @seealso [svforest()], [svforest_methods()], [svforest_regression]
#' @name svforest_calibration
NULL

#' Missing values in svforest() and predict()
#'
#' `na_action` of [svforest()], and how [predict.svforest()] fills in missing values.
#'
#' @section Missing values (`na_action`):
#' `na_action` (passed through `...`, matched by its exact name) says what
#' happens to missing predictor values (`NA`, `NaN`; also `NA` stored in the
#' `x` slot of a `dgCMatrix`):
#' \describe{
#' \item{`"impute"` (default)}{The fit and `predict()` fill them in, for
#'   every method, classification and regression. The model stores, for
#'   every numeric predictor, the median of its observed training values (0
#'   when all are missing; for a `dgCMatrix` the implicit zeros count as
#'   observed; rows of case weight 0 do not count), and, when training data
#'   have `NA` in 2 to 100 numeric predictors (dense input), their means and
#'   covariances (pairwise-complete, shrunk 10% toward the diagonal). A
#'   missing numeric value is then filled with its conditional mean given
#'   the row's observed numeric values under that normal model (correlated
#'   predictors fill each other in); the medians fill the rest (a row with
#'   no observed numeric value, more than 100 numeric predictors, sparse
#'   input), in training and new data. Each
#'   numeric or logical predictor that has `NA` in the training data also
#'   gets a 0/1 design column `<column>_missing` (1 where the value was
#'   missing), so that missingness that carries signal is learnt; a logical
#'   predictor's `NA` is filled with its most frequent value. A factor (or
#'   character) predictor with `NA` in training gets the level
#'   `"(missing)"`, a level like any other. At prediction time
#'   the same values are used: an `NA` in a column that had none in training
#'   gets the stored median (numeric), or the most frequent training level
#'   (a factor without a `"(missing)"` level), and no indicator column
#'   exists for it. A row with every predictor missing is fitted and
#'   predicted (as the medians with all indicators on). `validation` data go
#'   through the same imputation. Permutation importance permutes an
#'   indicator column together with its predictor.}
#' \item{`"fail"`}{Missing values are an error naming the column, at fit
#'   time and at prediction time with the model.}
#' }
#' At prediction time, missing values in the columns the model uses give one
#' warning per [predict.svforest()] call naming those columns (the rows are
#' still predicted, with the values filled in): a prediction from filled-in
#' values is a guess the user should know about. `predict(..., na_action =)`
#' overrides the model's choice for that call: `"fail"` makes them an error
#' (as ranger does), `"impute"` fills them in (only a model fitted with
#' `"impute"` stores what it needs).
#' Infinite values and a missing outcome are errors either way. Models
#' saved by versions without `na_action` do not impute (`NA` in `newdata`
#' stays an error).
#'
#' @seealso [svforest()], [svforest_methods()]
#' @name svforest_missing_values
NULL

#' Input handling of svforest()
#'
#' Which predictors and outcomes [svforest()] accepts, and how.
#'
#' @section Input handling:
#' Factor and character predictors become one indicator column per level,
#' or, with `factor_coding = "order"` (the default method's for classes;
#' `"auto"`, for numbers, does so for factors of more than 10 levels; see
#' [svforest_parameters]), one column that each tree reads through level
#' values learnt from its own in-bag rows. Levels unseen in training are an
#' error at prediction time. Columns are matched to predictors by position,
#' so any column names work, non-syntactic ones included, and names that
#' paste into each other (a numeric `a1` beside a factor `a` of level
#' `"1"`) stay apart in the design and in importance. Missing
#' predictor values are imputed by default (see [svforest_missing_values]);
#' infinite values are an error naming the column; so are columns
#' of other types (complex numbers, lists). `Date` and `POSIXct` columns are
#' used as numbers (days, and seconds, since 1970-01-01 UTC, as ranger does):
#' the model records which columns were dates, and `predict()` converts them
#' the same way (a date column of `newdata` must have the training class).
#' Logical columns count as 0/1.
#' A data frame whose predictors are all numeric (or dates), given as `x`
#' or through the formula `y ~ .`, is taken as it is, without
#' [model.frame()] and [model.matrix()] (whose cost grows with the square of
#' the columns): the same model, and thousands of columns fit and predict
#' about as fast as the matrix. Constant predictors are kept but never split on and get zero weight
#' (also in a `dgCMatrix`, where a column holding one non-zero value in every
#' row is constant): when no predictor varies, every tree is one leaf and all
#' rows get the same prediction. Duplicated rows are kept as they are (they
#' weigh more). Explicit zeros stored in a `dgCMatrix` are the same as
#' implicit ones, and a `dgCMatrix` without non-zeros is all-constant data.
#' Matrix column names, when given, must be unique and non-empty: `predict()`
#' matches columns by them. An outcome level with no rows is kept (it is never
#' predicted) with a warning; a level that is `NA` is an error. Zero rows or
#' zero predictor columns are an error; one predictor is fine.
#'
#' @seealso [svforest()], [svforest_methods()]
#' @name svforest_input
NULL

# Help pages on the topics of svforest() (its own page, ?svforest, is kept to
# usage, arguments, value and an example). Documentation only.

#' Engine parts and method parameters of svforest()
#'
#' The parts (sampler, splitter, leaf model) and parameters that [svforest()] takes through `...`, matched by their exact names. The method presets and their own parameters are on [svforest_methods()]; ranger's and randomForest's argument names are errors that name the svforest equivalent.
#'
#' @section Engine parts and parameters (passed through `...`):
#' \describe{
#' \item{`sampler`}{`"all"` rows, `"bootstrap"` or `"subsample"` (these two
#'   give an out-of-bag error).}
#' \item{`sample_fraction`}{share of rows drawn by the sampler (default 1, or
#'   0.632 for `"subsample"`).}
#' \item{`splitter`}{`"random_axis"` (RSVT), `"psvm"` (proximal SVM
#'   oblique splits, with `nu`, `m_max`, `n_min`), `"transform"` (learned
#'   transformations, with `transform_rank` (default `NA`: automatic),
#'   `transform_center` (default `TRUE`: affine subspaces; `FALSE`: the
#'   paper's through the origin), `subspace_dim` (default 10),
#'   `dim_per_class` (default `NA`), `transform_choice` (default `"oob"`:
#'   each node's transform and dimension chosen on its out-of-bag rows;
#'   `"inbag"`: the paper's, on its own rows),
#'   `transform_iter` (default 30), `transform_step` (default 0.5),
#'   `node_tries` (default 1) and
#'   `min_node_size` (default 5)), `"cart"` (entropy splits, see method
#'   "tdsvm") or `"oob_svm"` (RSVF, with `n_theta`, `n_omega`, `n_tau`,
#'  `proj_dim`, `delta_tau`, `split_tolerance`, `split_max_iter`,
#'  `screen_fraction`, `screen_keep` and `min_leaf_size`).}
#' \item{`leaf`}{`"linear_svm"`, `"logistic"` (L2-regularised logistic
#'   regression, LIBLINEAR, with the parameters of `"linear_svm"`),
#'   `"constant"` (class frequencies) or `"kernel_svm"` (RBF SVM with the
#'   first `cost` and `gamma` outside method "tdsvm").}
#' Only the parameters of the parts a fit uses are accepted (another one is
#' an error naming the part it belongs to) and stored in the model's
#' `params`.
#' \item{`aggregation`}{`"vote"` (majority vote, ties broken by averaged
#'   probabilities), `"prob"` (largest averaged probability) or
#'   `"max_confidence"` (the most confident tree).}
#' \item{`leaf_size_factor`, `min_leaf_size`, `split_rule`, `max_depth`}{tree
#'   size (`max_depth = 0`: unlimited; the method default is 0, 9 for `"transform"`).}
#' \item{`rare_classes`}{`"negative"` or `"constant"`, see above.}
#' \item{`cost`, `cv_folds`, `min_class_rows`, `balanced`, `tolerance`,
#'   `cv_tolerance`}{the leaf SVMs: grid of `C`, folds of the inner CV (1: no
#'   CV, the first `cost` is used), fewest rows a class needs for the leaf to
#'   get an SVM, class balancing (`TRUE`, `FALSE` or `"task"`: balanced with
#'   more than two classes, the task's class shares with two, see method
#'   "rsvf"; they apply to the cross-validation fits too),
#'   LIBLINEAR's stopping tolerance for the final
#'   fit (default 0.01, LIBLINEAR's own) and for the CV fits (default 0.1:
#'   only their held-out accuracy is used, and it is faster).}
#' \item{`first_tree`}{index (from 0) of the first tree grown (default 0):
#'   a fit with `ntree = m, first_tree = k` grows trees `k + 1` to `k + m` of
#'   the forest with that `seed`, so machines can grow parts of one forest
#'   that [combine()] merges; see [svforest_future()].}
#' \item{`ntree_max`}{most trees a forest may grow (default: `ntree` when
#'   `ntree` is given; with `ntree = NULL`, 300 for a `"hybrid"`
#'   classification forest and the method's `ntree` otherwise). Above `ntree`
#'   the forest grows by its out-of-bag error: after `T` trees (`T = ntree,
#'   2 ntree, ...`) it grows `ntree` more while its out-of-bag error after `T`
#'   trees is below its error after `T / 2` by at least 2 points and at least
#'   10 rows. Forests of
#'   many weak trees (many noise predictors) keep growing; where 100 trees
#'   have settled, none are added. The rule reads the error as trees are
#'   added in a fixed order, so the model does not depend on `num_threads`
#'   or on [svforest_future()]'s workers. It needs out-of-bag rows (a
#'   bootstrap or subsample).}
#' \item{`scale`}{how predictors are scaled for the SVMs and oblique splits
#'   (see [svforest_scaling]): `"minmax"`, `"rank"` or `"none"`
#'   (`TRUE` and `FALSE`, the values of earlier versions, mean `"minmax"`
#'   and `"none"`).}
#' \item{`factor_coding`}{how factor (and character) predictors of a data
#'   frame reach the trees: `"indicator"` (one 0/1 column per level; the
#'   paper presets' and the default method's for a numeric outcome) or
#'   `"order"` (the default method's for classes): one column per factor,
#'   each level replaced by its rank when the levels are ordered by the
#'   outcome among the rows the trees are grown on (the share of the second
#'   class with two classes, the first principal component of the levels'
#'   class shares with more, the mean of a numeric outcome; ordered factors
#'   too). A cut on that column splits the levels into two groups, the best
#'   such split for two classes or a number, and `mtry` draws a factor once
#'   rather than once per level. Levels without training rows rank as all
#'   rows together would. A factor in an interaction of the formula keeps
#'   its indicators. Matrix input has no factors: the
#'   parameter changes nothing there. Importance and explanations then name
#'   the factor's column after the factor.}
#' }
#'
#' @seealso [svforest()], [svforest_methods()]
#' @name svforest_parameters
NULL

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
#' or, with `factor_coding = "order"` (the default method's for classes, see
#' [svforest_parameters]), one column of the levels' ranks by the outcome;
#' levels unseen in training are an error at prediction time. Missing
#' predictor values are imputed by default (see [svforest_missing_values]);
#' infinite values are an error naming the column; so are columns
#' of other types (dates, complex numbers, lists). Logical columns count as
#' 0/1. Constant predictors are kept but never split on and get zero weight
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

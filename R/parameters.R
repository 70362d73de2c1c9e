# Parameters of the engine's parts: one definition (default and check) per
# parameter, shared by every part that reads it. Which part reads which
# parameter is registered with the part (R/parts.R, R/method-*.R).

# `balanced`: TRUE, FALSE or "task" (two-class tasks keep the task's class
# shares in every SVM, see class_factors(); more classes as TRUE).
check_balanced <- function(x) {
  if (identical(x, "task")) return(x)
  if (!is.logical(x) || length(x) != 1 || is.na(x)) {
    stop(sprintf("`balanced` must be TRUE, FALSE or \"task\", not %s.", describe(x)), call. = FALSE)
  }
  x
}

# The engine's view of `balanced`: balancing on or off, and a cost factor per
# class applied on top of it in two-class SVMs. With "task" and two classes,
# factor 2 * share makes a balanced SVM weight each class by its task share
# over its share in the node, so every node's SVM sees the task's class
# proportions (its sign then aims at the error rate, which RSVF's split
# criterion counts, not at the balanced error rate).
class_factors <- function(balanced, y) {
  k <- nlevels(y)
  if (identical(balanced, "task") && k == 2) 2 * as.vector(table(y)) / length(y) else rep(1, k)
}

# A preset's own default for a parameter, else the general one.
preset_default <- function(preset, name, value) {
  if (!is.null(preset$defaults[[name]])) preset$defaults[[name]] else value
}

# A whole number, or a single NA (logical, integer or double; not NaN) for
# the parameters whose default `NA` means "automatic" or "none" (m_max, transform_rank,
# dim_per_class, sigma, sigma_max): NA is the documented default value (for
# classification), so giving it is the default.
check_count_or_na <- function(x, name, min) {
  if ((is.logical(x) || is.numeric(x)) && length(x) == 1 && is.na(x) && !is.nan(x)) return(NA_integer_)
  check_count(x, name, min)
}

# `ntime`: a whole number >= 2, or Inf (every event time); a double.
check_ntime <- function(x) {
  if (!is.numeric(x) || length(x) != 1 || is.na(x) || (is.finite(x) && (x < 2 || x != round(x))) || x == -Inf) {
    stop(sprintf("`ntime` must be a whole number of at least 2 or `Inf` (every event time), not %s.", describe(x)),
         call. = FALSE)
  }
  as.double(x)
}

# `max_bins`: Inf (exact cuts) or a whole number from 2 to 65535.
check_max_bins <- function(x) {
  if (is.numeric(x) && length(x) == 1 && !is.na(x) && x == Inf) return(Inf)
  if (!is.numeric(x) || length(x) != 1 || is.na(x) || !is.finite(x) || x != round(x) || x < 2 || x > 65535) {
    stop(sprintf("`max_bins` must be Inf or a single whole number between 2 and 65535, not %s.", describe(x)),
         call. = FALSE)
  }
  as.double(x)
}

# How dials and caret tune a parameter. A range runs from `lower` to `upper`
# on the parameter's own scale (`upper = "predictors"`: the number of
# predictor columns), spread on the `trans` scale ("log10" or "log2"; NULL:
# linear for dials, logarithmic for caret when `lower` is positive); `rows`:
# caret caps the upper end at a quarter of the training rows, as a node size
# beyond that leaves every tree of a resample a single leaf. A choice
# parameter is tuned over its choices (`values`: others, e.g. TRUE and FALSE).
tune_range <- function(label, lower, upper, type = "integer", trans = NULL, rows = FALSE) {
  list(label = label, lower = lower, upper = upper, type = type, trans = trans, rows = rows)
}
tune_values <- function(label, values = NULL) list(label = label, values = values)

# Every parameter of the engine's parts, each with all its facts: its default
# (a function of the preset and the training rows `n`, and of the parameters
# resolved before it), its check, its `help` (markdown: backticks and links
# only) and, for a default that depends on the data, `default_doc`; `choices`
# of a choice parameter (a call is evaluated when needed, as the registered
# parts); `tune`: its range for dials and caret (NULL: not tuned); `alias`:
# ranger's, randomForest's and scikit-learn's names for it; `finish`: its
# value once the design's `p` predictor columns are known. The help page
# ?svforest_parameters, the dials objects (R/parsnip.R), caret's ranges
# (R/caret.R) and the foreign names (R/generics.R) are generated from it.
svf_parameter_table <- list(
  sampler = list(default = function(preset, n) preset_default(preset, "sampler", preset$sampler),
                 family = list(survival = "subsample"), choices = quote(part_names("sampler")),
                 tune = tune_values("Row sampler"),
                 help = "How each tree draws its rows: `\"all\"` rows, `\"bootstrap\"` (with replacement) or `\"subsample\"` (without); these two give an out-of-bag error and out-of-bag probabilities."),
  sample_fraction = list(default = function(preset, n, args) if (identical(args$sampler, "subsample")) 0.632 else 1,
                         check = function(x) check_number(x, "sample_fraction", 0, 1, min_open = TRUE),
                         tune = tune_range("Sampled share of rows", 0.3, 1, "double"),
                         alias = c("sample.fraction", "sampsize", "max_samples"),
                         help = "Share of the rows each tree draws (a `\"subsample\"` sampler's default is 0.632, as for method \"transform\")."),
  splitter = list(default = function(preset, n) preset$splitter, choices = quote(part_names("splitter")),
                  tune = tune_values("Splitter"),
                  help = "How nodes split: `\"hybrid\"` (axis cuts and proximal-SVM hyperplanes, the default method), `\"random_axis\"` (RSVT), `\"psvm\"` (proximal SVM planes), `\"oob_svm\"` (RSVF's out-of-bag scored SVM splits), `\"transform\"` (learned transformations) or `\"cart\"` (entropy splits, TD-SVM). Each parameter below names the parts that read it; only the parameters of the parts a fit uses are accepted (another one is an error naming its part) and stored in the model's `params`."),
  leaf = list(default = function(preset, n) preset_default(preset, "leaf", preset$leaf),
              family = list(survival = "nelson_aalen", competing = "aalen_johansen"), choices = quote(part_names("leaf")),
              tune = tune_values("Leaf model"),
              help = "The leaves' model: `\"constant\"` (class frequencies, or the mean), `\"linear_svm\"`, `\"logistic\"` (L2-regularised logistic regression, LIBLINEAR, with the parameters of `\"linear_svm\"`) or `\"kernel_svm\"` (RBF SVM with the first `cost` and `gamma` outside method \"tdsvm\"); for a numeric outcome `\"ridge\"`, `\"linear_svr\"`, `\"kernel_svr\"` or `\"constant\"` (see [svforest_regression])."),
  aggregation = list(default = function(preset, n) preset$aggregation, choices = c("vote", "prob", "max_confidence"),
                     tune = tune_values("Aggregation"),
                     help = "How the trees' predictions combine: `\"vote\"` (majority vote, ties broken by averaged probabilities), `\"prob\"` (largest averaged probability) or `\"max_confidence\"` (the most confident tree)."),
  leaf_size_factor = list(default = function(preset, n) 1,
                          check = function(x) check_number(x, "leaf_size_factor", 0, min_open = TRUE),
                          tune = tune_range("Leaf size factor", 0.25, 4, "double", trans = "log2"),
                          help = "Multiplies `sqrt(n)` in the default `min_leaf_size`."),
  min_leaf_size = list(default = function(preset, n, args)
                         preset_default(preset, "min_leaf_size",
                                        as.integer(ceiling((if (is.null(args$leaf_size_factor)) 1 else args$leaf_size_factor) * sqrt(n)))),
                       check = function(x) check_count(x, "min_leaf_size", 1),
                       default_doc = "`ceiling(leaf_size_factor * sqrt(n))` (`n` training rows)",
                       family = list(survival = 10L),
                       tune = tune_range("Fewest rows per leaf", 2, 200, rows = TRUE),
                       help = "Fewest rows a leaf holds: a node splits only into children of at least this many rows (a survival forest's log-rank cut leaves this many on either side)."),
  split_rule = list(default = function(preset, n) "admissible", choices = c("admissible", "published"),
                    tune = tune_values("Random axis split rule"),
                    help = "Where a random axis split cuts: `\"admissible\"` among the positions that leave both children at least `min_leaf_size` rows; `\"published\"` (the published code) uniformly between the node's min and max, a cut that leaves a child too small making the node a leaf."),
  max_depth = list(default = function(preset, n) preset_default(preset, "max_depth", 0L),
                   check = function(x) check_count(x, "max_depth", 0, 10000),
                   tune = tune_range("Tree depth", 2, 20), alias = c("max.depth", "maxdepth"),
                   help = "Deepest level a tree grows to (0: unlimited)."),
  nu = list(default = function(preset, n) 1000,
            check = function(x) check_number(x, "nu", 0, min_open = TRUE),
            tune = tune_range("Proximal SVM nu", 10, 10000, "double", trans = "log10"),
            help = "The proximal SVM's weight of the fit against its regularisation (on scaled predictors)."),
  m_max = list(default = function(preset, n, args) NA_integer_,  # all predictors
               check = function(x) check_count_or_na(x, "m_max", 1),
               finish = function(x, p) min(if (is.na(x)) p else x, p),
               tune = tune_range("Predictors per proximal SVM", 1, "predictors"),
               help = "Most predictors a proximal SVM split draws (`NA`: all)."),
  # beyond 100,000 rows the smallest overlay group grows with n, so that a
  # PSVM tree's size (and the model's memory) stops growing with the data
  n_min = list(default = function(preset, n) max(2L, as.integer(ceiling(n / 50000))),
               check = function(x) check_count(x, "n_min", 0),
               default_doc = "`2`, or `n / 50000` rounded up beyond 100,000 training rows (`n`)",
               tune = tune_range("Fewest rows per overlay group", 1, 20),
               help = "A node splits only when both overlay groups of its classes have more rows than this."),
  transform_rank = list(default = function(preset, n) NA_integer_,
                        check = function(x) check_count_or_na(x, "transform_rank", 2),
                        tune = tune_range("Transform rank", 2, 32),
                        help = "Rank of the learned transformation (`NA`: automatic, square up to 32 predictors)."),
  transform_center = list(default = function(preset, n) TRUE,
                          check = function(x) check_flag(x, "transform_center"),
                          tune = tune_values("Centred subspaces", c(TRUE, FALSE)),
                          help = "`TRUE`: affine subspaces; `FALSE`: the paper's subspaces through the origin."),
  subspace_dim = list(default = function(preset, n) 10L,
                      check = function(x) check_count(x, "subspace_dim", 1),
                      tune = tune_range("Subspace dimension", 1, 30),
                      help = "Dimension of the subspaces a transformation split compares."),
  dim_per_class = list(default = function(preset, n) NA_integer_,
                       check = function(x) check_count_or_na(x, "dim_per_class", 1),
                       tune = tune_range("Subspace dimension per class", 1, 30),
                       help = "Dimension of each class's subspace (`NA`: `subspace_dim` at every node)."),
  transform_choice = list(default = function(preset, n) "oob", choices = c("oob", "inbag"),
                          tune = tune_values("Transform choice"),
                          help = "`\"oob\"`: each node's transformation and dimension chosen on its out-of-bag rows; `\"inbag\"`: the paper's choice on the node's own rows."),
  transform_iter = list(default = function(preset, n) 30L,
                        check = function(x) check_count(x, "transform_iter", 0, 10000),
                        tune = tune_range("Transform iterations", 5, 100),
                        help = "Gradient steps that learn a transformation."),
  transform_step = list(default = function(preset, n) 0.5,
                        check = function(x) check_number(x, "transform_step", 0, min_open = TRUE),
                        tune = tune_range("Transform step size", 0.1, 1, "double"),
                        help = "Step size of those gradient steps."),
  psvm_cut = list(default = function(preset, n) "gain", choices = c("plane", "gain"),
                  tune = tune_values("PSVM split offset"),
                  help = "The offset of a proximal SVM split: `\"gain\"` (the cut along the plane's direction of largest information gain) or `\"plane\"` (the proximal SVM's own offset)."),
  node_tries = list(default = function(preset, n) 1L,
                    check = function(x) check_count(x, "node_tries", 1, 1000),
                    tune = tune_range("Tries per node", 1, 10),
                    help = "Random draws per node (groups of classes, and predictors for PSVM splits), keeping the split of largest information gain."),
  min_node_size = list(default = function(preset, n) preset_default(preset, "min_node_size", 5L),
                       check = function(x) check_count(x, "min_node_size", 2),
                       family = list(classification = 2L, regression = 5L, survival = 20L),
                       tune = tune_range("Fewest rows to split", 2, 40, rows = TRUE),
                       help = "Nodes with fewer rows are leaves."),
  mtry = list(default = function(preset, n) NA_integer_,
              check = function(x) check_count_or_na(x, "mtry", 1),
              finish = function(x, p) if (is.na(x)) x else min(x, p),
              tune = tune_range("Predictors per split", 1, "predictors"),
              help = "Predictors (among those that vary in the node) a node draws for its axis cuts (`NA`: `floor(sqrt(p))` for `p` predictor columns; a survival forest's `ceiling(sqrt(p))` above 1,024 training events)."),
  oblique_mtry = list(default = function(preset, n) NA_integer_,
                      check = function(x) check_count_or_na(x, "oblique_mtry", 2),
                      finish = function(x, p) if (is.na(x)) x else min(x, p),
                      tune = tune_range("Predictors per hyperplane", 2, "predictors"),
                      help = "Predictors a node draws for its hyperplanes, the axis cuts' and more (`NA`: `2 * mtry`)."),
  n_oblique = list(default = function(preset, n) preset_default(preset, "n_oblique", 1L),
                   check = function(x) check_count(x, "n_oblique", 0, 100),
                   # competing risks: the all-cause direction and one per cause (of the first two)
                   family = list(competing = 3L),
                   tune = tune_range("Hyperplanes per node", 0, 10),
                   help = "Hyperplanes competing with the axis cuts at each node (0: axis cuts only)."),
  split_ridge = list(default = function(preset, n) preset_default(preset, "split_ridge", 0.01),
                     check = function(x) check_number(x, "split_ridge", 0, min_open = TRUE),
                     tune = tune_range("Hyperplane ridge penalty", 0.001, 1, "double", trans = "log10"),
                     help = "Ridge penalty of a hyperplane's proximal SVM, times the node's rows (on standardised predictors)."),
  oblique_choice = list(default = function(preset, n) preset_default(preset, "oblique_choice", "oob"), choices = c("inbag", "oob"),
                        tune = tune_values("Hyperplane choice"),
                        help = "`\"oob\"`: a hyperplane replaces the best axis cut only when it also separates the node's out-of-bag rows better; `\"inbag\"`: on the in-bag rows alone."),
  tree_choice = list(default = function(preset, n) preset_default(preset, "tree_choice", "oob"), choices = c("oob", "none"),
                     tune = tune_values("Tree structure choice"),
                     help = "`\"oob\"`: each tree is grown with and without hyperplanes on its sample, keeping the one whose leaves predict its out-of-bag rows better; `\"none\"`: always the hybrid one."),
  oblique_rows = list(default = function(preset, n) preset_default(preset, "oblique_rows", 0),
                      check = function(x) check_number(x, "oblique_rows", 0),
                      family = list(classification = 2),
                      tune = tune_range("Rows per hyperplane predictor", 0, 5, "double"),
                      help = "Rows per predictor of a hyperplane a node needs to try hyperplanes."),
  oblique_stop = list(default = function(preset, n) NA_integer_,
                      check = function(x) check_count_or_na(x, "oblique_stop", 1),
                      tune = tune_range("Axis cuts before hyperplanes stop", 1, 5),
                      help = "A node below this many axis cuts in a row (counted from the root, or from the nearest hyperplane above it) tries axis cuts alone (`NA`: hyperplanes at every node). Where an axis cut has won, hyperplanes seldom win further down, and they are most of a node's work: a faster fit, a little less accurate on most data."),
  max_bins = list(default = function(preset, n) preset_default(preset, "max_bins", Inf),
                  check = check_max_bins,  # families: bench/results/default_variants_dev_bins.txt
                  family = list(classification = 255, regression = 1024),
                  tune = tune_range("Bins per predictor", 16, 1024, trans = "log2"),
                  help = "Bins per numeric predictor of the forest's column index (`Inf`: none, every cut between two distinct values). A finite number bins each predictor of more distinct values into at most that many quantile bins, once per forest; a node of more rows than a predictor's bins cuts it only between bins (midway between the training values either side), unless its rows fall in fewer than 128 of them (half of them, with fewer than 256 bins); a node of more than 1,024 rows (4,096 for a numeric outcome) fits its hyperplanes on that many of them, drawn at random, and one of more than 1,536 rows cuts their projections in `max_bins` buckets of equal width. Smaller nodes search exactly. Faster on many rows."),
  # the survival forest's own knobs (its Nelson-Aalen leaf reads them,
  # R/engine-survival.R). A survival forest's defaults (`family`: its node
  # sizes, sampler, trees, rivals) were chosen on held-out splits of the
  # survival harness's sets (bench/results/harness_survival*.txt).
  min_node_events = list(default = function(preset, n) NA_integer_,
                         check = function(x) check_count_or_na(x, "min_node_events", 1),
                         tune = tune_range("Fewest events to split", 1, 40),
                         help = "Events a survival forest's node needs to split (`NA`: the square root of the training events E, rounded up; above 1,024 events a survival forest's is 32 (E / 1024)^(1/8), rounded up (44 at 11,339 events, 58 at 114,000; the square root 107 and 338), a competing-risks forest's stays the square root; events are counted as rows, whatever the case weights)."),
  tree_rival = list(default = function(preset, n) "both", choices = c("both", "axis", "oblique"),
                    tune = tune_values("Rival tree structures"),
                    help = "The structures a survival tree grown with `tree_choice = \"oob\"` competes with on its sample: `\"both\"` (one with axis cuts alone and one keeping every hyperplane that wins in-bag), `\"axis\"` or `\"oblique\"` (one of them)."),
  oblique_fit = list(default = function(preset, n) "ridge", choices = c("ridge", "cox"),
                     tune = tune_values("Survival hyperplane fit"),
                     help = "How a survival forest fits a node's hyperplane: `\"ridge\"` (a ridge fit to the node's martingale residuals) or `\"cox\"` (one Newton step of the Cox partial likelihood)."),
  ntime = list(default = function(preset, n) 150,
               check = function(x) check_ntime(x),
               tune = tune_range("Curve grid times", 20, 500),
               help = "How many times of the training event times a survival or competing-risks forest's curves are stored at (its leaves, its out-of-bag tally and the default times of its predictions): at most `ntime`, at the quantiles of the event times (the last event time among them); `Inf`: every distinct event time. Splits read the rows' exact times whatever `ntime`. A curve's value at a grid time is exact (its leaf's Nelson-Aalen or Aalen-Johansen estimate at that time); between grid times it is the step function of the grid."),
  cost = list(default = function(preset, n) preset_default(preset, "cost", c(0.25, 0.5, 1, 2, 4)),
              check = function(x) sort(unique(check_numbers(x, "cost"))),
              tune = tune_range("SVM cost (C)", 0.01, 1000, "double", trans = "log10"),
              help = "Grid of the SVMs' `C`, chosen by cross-validation in each leaf (one value: no choice)."),
  cv_folds = list(default = function(preset, n) preset_default(preset, "cv_folds", 3L),
                  check = function(x) check_count(x, "cv_folds", 1, 20),
                  tune = tune_range("Leaf CV folds", 1, 10),
                  help = "Folds of the cross-validation that chooses a leaf's `cost` or `lambda` (1: no cross-validation, the first value is used)."),
  min_class_rows = list(default = function(preset, n) 2L,
                        check = function(x) check_count(x, "min_class_rows", 2),
                        tune = tune_range("Fewest rows per class", 2, 20),
                        help = "Fewest rows a class needs for a leaf (or split) to fit an SVM to it."),
  rare_classes = list(default = function(preset, n) "negative", choices = c("constant", "negative"),
                      tune = tune_values("Rare classes"),
                      help = "Classes with fewer than `min_class_rows` rows in a leaf: `\"negative\"` (their rows stay as negatives of the other classes' SVMs) or `\"constant\"` (the leaf predicts its class frequencies)."),
  balanced = list(default = function(preset, n) preset_default(preset, "balanced", TRUE),
                  check = function(x) check_balanced(x),
                  tune = tune_values("Balanced SVMs", c(TRUE, FALSE)),
                  help = "Class balancing of the SVMs: `TRUE`, `FALSE` or `\"task\"` (balanced with more than two classes, the task's class shares with two, see method \"rsvf\"); it applies to the cross-validation fits too."),
  tolerance = list(default = function(preset, n) 0.01,
                   check = function(x) check_number(x, "tolerance", 0, min_open = TRUE),
                   tune = tune_range("SVM tolerance", 0.001, 0.1, "double", trans = "log10"),
                   help = "LIBLINEAR's stopping tolerance for the final fit (LIBLINEAR's own default)."),
  cv_tolerance = list(default = function(preset, n) 0.1,
                      check = function(x) check_number(x, "cv_tolerance", 0, min_open = TRUE),
                      tune = tune_range("SVM cross-validation tolerance", 0.01, 1, "double", trans = "log10"),
                      help = "LIBLINEAR's stopping tolerance for the cross-validation fits (only their held-out accuracy is used, and it is faster)."),
  # RSVF's OOB-SVM splits (splitter "oob_svm")
  n_theta = list(default = function(preset, n) 8L,
                 check = function(x) check_count(x, "n_theta", 1, 1e5),
                 tune = tune_range("Predictor sets per node", 1, 32),
                 help = "Random predictor sets a node tries."),
  n_omega = list(default = function(preset, n) 1L,
                 check = function(x) check_count(x, "n_omega", 1, 1e5),
                 tune = tune_range("Row draws per predictor set", 1, 8),
                 help = "Random weight vectors per predictor set."),
  n_tau = list(default = function(preset, n) 4L,
               check = function(x) check_count(x, "n_tau", 1, 1e5),
               tune = tune_range("Thresholds per node", 1, 16),
               help = "Thresholds (projections of random in-bag rows) per weight vector."),
  proj_dim = list(default = function(preset, n) 1L,
                  check = function(x) check_count(x, "proj_dim", 1, 1e5),
                  tune = tune_range("Predictors per projection", 1, "predictors"),
                  help = "Predictors per random projection."),
  delta_tau = list(default = function(preset, n) 0,
                   check = function(x) check_number(x, "delta_tau", 0, 1),
                   tune = tune_range("Threshold spread", 0, 0.5, "double"),
                   help = "In-bag rows whose projection lies within this share of the node's projection range of the threshold go to both children."),
  split_tolerance = list(default = function(preset, n) preset_default(preset, "split_tolerance", 0.1),
                         check = function(x) check_number(x, "split_tolerance", 0, min_open = TRUE),
                         tune = tune_range("Split SVM tolerance", 0.01, 1, "double", trans = "log10"),
                         help = "Stopping tolerance of the split SVMs' Newton solver."),
  screen_fraction = list(default = function(preset, n) preset_default(preset, "screen_fraction", 1),
                         check = function(x) check_number(x, "screen_fraction", 0, 1, min_open = TRUE),
                         tune = tune_range("Screening share of rows", 0.05, 1, "double"),
                         help = "Share of a node's rows on which the candidate splits are screened (1: no screening)."),
  screen_keep = list(default = function(preset, n) preset_default(preset, "screen_keep", 4L),
                     check = function(x) check_count(x, "screen_keep", 1, 1e5),
                     tune = tune_range("Candidates kept by screening", 1, 16),
                     help = "Candidate splits kept by the screening and scored on all rows."),
  split_max_iter = list(default = function(preset, n) preset_default(preset, "split_max_iter", 100L),
                        check = function(x) check_count(x, "split_max_iter", 1, 1000),
                        tune = tune_range("Split SVM iterations", 1, 100),
                        help = "Most Newton iterations of a split SVM."),
  scale = list(default = function(preset, n) preset_default(preset, "scale", "minmax"),
               check = function(x) check_scale(x), choices = quote(scale_choices),  # R/rank.R
               tune = tune_values("Predictor scaling"),
               help = "How predictors are scaled for the SVMs and oblique splits (see [svforest_scaling]): `\"minmax\"`, `\"rank\"`, `\"auto\"` (ranks only the columns whose central 90% of values spans less than a quarter of their range) or `\"none\"` (`TRUE` and `FALSE`, the values of earlier versions, mean `\"minmax\"` and `\"none\"`)."),
  factor_coding = list(default = function(preset, n) preset_default(preset, "factor_coding", "indicator"),
                       choices = factor_coding_choices, tune = tune_values("Factor coding"),
                       family = list(classification = "order", regression = "auto", survival = "auto"),
                       help = "How factor (and character) predictors of a data frame reach the trees: `\"indicator\"` (one 0/1 column per level; the paper presets'), `\"order\"` (the default method's for classes) or `\"auto\"` (the default method's for numbers: `\"order\"` for factors of more than 10 levels, indicators for the others). With `\"order\"` a factor is one column of level codes, and each tree gives every level a value learnt from the tree's own in-bag rows alone: the level's share of the second class with two classes, its class shares projected on their first principal component (levels weighted by their rows) with more, its mean outcome for a number; each shrunk toward the tree's overall value, (sum + 5 * overall) / (rows + 5), and a level with fewer than 5 distinct in-bag rows at that overall value. The tree stores its values and reads new rows through them, so an out-of-bag row's own label never shapes the column its trees read: out-of-bag error stays honest with an ID-like factor of many rare levels. A cut on the column splits the levels into two groups (the best such split for two classes or a number), `mtry` draws a factor once rather than once per level, and no n x levels matrix is built. A level of the training factor without training rows, and a missing value that reaches the trees, read as the tree's overall value; a level the training data did not have is an error at prediction time, as with indicators. The default method's hyperplanes read the coded column; SVM leaves and the RSVF splitter, which read scaled rows, do not. A factor in an interaction of the formula keeps its indicators; ordered factors are coded like the others. Matrix input has no factors: the parameter changes nothing there. Importance and explanations name the factor's column(s) after the factor. Models saved by versions that ordered the levels once for all trees predict as they did."),
  # tree decomposition (splitter "cart") and kernel SVM leaves
  sigma = list(default = function(preset, n) NA_integer_,
               check = function(x) check_count_or_na(x, "sigma", 2),
               tune = tune_range("Largest leaf", 10, 1000, trans = "log10", rows = TRUE),
               help = "Nodes with fewer rows are leaves (`NA`: chosen by the search; giving it skips the search)."),
  sigma0 = list(default = function(preset, n) as.integer(min(preset_default(preset, "sigma0", 1500), max(50, ceiling(n / 8)))),
                check = function(x) check_count(x, "sigma0", 2),
                default_doc = "`1500` (the paper's; `500` for a numeric outcome), at most `n / 8` rounded up and at least 50 (`n` training rows)",
                tune = tune_range("First sigma of the search", 100, 10000, trans = "log10"),
                help = "The `sigma` of the search's first stage."),
  sigma_max = list(default = function(preset, n) preset_default(preset, "sigma_max", NA_integer_),
                   check = function(x) check_count_or_na(x, "sigma_max", 2),
                   tune = tune_range("Largest sigma of the search", 100, 10000, trans = "log10"),
                   help = "Cap on the searched `sigma` (`NA`: none)."),
  sigma_factor = list(default = function(preset, n) 4L,
                      check = function(x) check_count(x, "sigma_factor", 2, 1000),
                      tune = tune_range("Sigma search factor", 2, 10),
                      help = "Factor between successive `sigma` of the search."),
  lambda = list(default = function(preset, n) preset_default(preset, "lambda", 10^(-3:1)),
                check = function(x) sort(unique(check_numbers(x, "lambda"))),
                tune = tune_range("Ridge penalty", 1e-4, 100, "double", trans = "log10"),
                help = "Grid of the ridge leaves' penalty, chosen by cross-validation in each leaf."),
  epsilon = list(default = function(preset, n) preset_default(preset, "epsilon", 0.1),
                 check = function(x) check_number(x, "epsilon", 0),
                 tune = tune_range("SVR tube epsilon", 0, 1, "double"),
                 help = "The SVRs' insensitive tube, on the standardised outcome."),
  gamma = list(default = function(preset, n) preset_default(preset, "gamma", 10^(-1:2)),
               check = function(x) sort(unique(check_numbers(x, "gamma"))),
               tune = tune_range("RBF kernel gamma", 0.01, 100, "double", trans = "log10"),
               help = "Grid of the RBF kernel's `gamma` (chosen on validation data by method \"tdsvm\"; elsewhere the first is used)."),
  top_k = list(default = function(preset, n) 5L,
               check = function(x) check_count(x, "top_k", 1),
               tune = tune_range("Candidate leaves per round", 1, 20),
               help = "Pairs of `cost` and `gamma` of the search's first stage that its later stages try."),
  min_gain = list(default = function(preset, n) 0.5,
                  check = function(x) check_number(x, "min_gain", 0, 100),
                  tune = tune_range("TD-SVM minimum gain", 0, 5, "double"),
                  help = "Smallest gain of validation accuracy (percentage points) for the `sigma` search to go on."),
  validation_fraction = list(default = function(preset, n) 0.2,
                             check = function(x) check_number(x, "validation_fraction", 0, 0.9, min_open = TRUE),
                             tune = tune_range("Validation share", 0.1, 0.5, "double"),
                             help = "Share of the rows held out to choose `sigma`, `cost` and `gamma` when no `validation` data are given."),
  multiclass = list(default = function(preset, n) "ovo", choices = c("ovo", "ovr"),
                    tune = tune_values("Multiclass scheme"),
                    help = "Kernel SVMs for more than two classes: `\"ovo\"` (one against one) or `\"ovr\"` (one against the rest)."),
  svm_tolerance = list(default = function(preset, n) 0.001,
                       check = function(x) check_number(x, "svm_tolerance", 0, min_open = TRUE),
                       tune = tune_range("Kernel SVM tolerance", 1e-4, 0.1, "double", trans = "log10"),
                       help = "LIBSVM's stopping tolerance."),
  cache_size = list(default = function(preset, n) 100,
                    check = function(x) check_number(x, "cache_size", 1, 1e6),
                    help = "LIBSVM's kernel cache in MB (speed only: the model does not depend on it, so it is not tuned).")
)

# A parameter's choices (evaluated when they are a call, e.g. the registered
# parts); NULL when it is not a choice parameter.
parameter_choices <- function(spec) if (is.language(spec$choices)) eval(spec$choices) else spec$choices

# The table with each spec's `name`, and the check of a choice parameter.
complete_parameters <- function(table) {
  for (name in names(table)) {
    spec <- table[[name]]
    spec$name <- name
    if (is.null(spec$check)) {
      spec$check <- local({
        own <- spec
        function(x) check_choice(x, own$name, parameter_choices(own))
      })
    }
    table[[name]] <- spec
  }
  table
}
svf_parameters <- complete_parameters(svf_parameter_table)

# Fit options: arguments of svforest() passed through `...` that are not
# parameters of a part (svforest() and its stages take them out of `...`):
# their help, foreign names and tuning range, as in svf_parameters.
svf_fit_options <- list(
  ntree = list(family = list(survival = 300L),
               help = "svforest()'s `ntree`: the trees of the forest (`NULL`: the method's; a survival forest's own default grows exactly that many)."),
  ntree_max = list(tune = tune_range("Most trees", 100, 2000),
                   help = "Most trees a forest may grow (default: `ntree` when `ntree` is given; with `ntree = NULL`, 300 for a `\"hybrid\"` classification forest and the method's `ntree` otherwise; at least `ntree`). Above `ntree` the forest grows by its out-of-bag error: after `T` trees (`T = ntree, 2 ntree, ...`) it grows `ntree` more while its out-of-bag error after `T` trees is below its error after `T / 2` by at least 2 points and at least 10 rows, and the rows the added trees set right outnumber those they set wrong beyond chance (by twice its standard deviation). For event times (survival, competing risks) the error it reads is 1 - Somers' D = 2 (1 - C), `C` the out-of-bag concordance, so a point of `C` per doubling counts, and the test reads each row's pseudo-value of it (its own term of `C`; a pair of rows is in both rows' discordant shares, which would read chance as a fall). Forests of many weak trees (many noise predictors) keep growing; where 100 trees have settled, none are added. The rule reads the error as trees are added in a fixed order, so the model does not depend on `num_threads` or on [svforest_future()]'s workers. It needs out-of-bag rows (a bootstrap or subsample)."),
  first_tree = list(help = "Index (from 0) of the first tree grown (default 0): a fit with `ntree = m, first_tree = k` grows trees `k + 1` to `k + m` of the forest with that `seed`, so machines can grow parts of one forest that [combine()] merges; see [svforest_future()]."),
  case_weights = list(alias = c("case.weights", "weights", "sample_weight"),
                      help = "One non-negative weight per training row; see [svforest_weights]."),
  class_weights = list(alias = c("class.weights", "classwt", "class_weight"),
                       help = "A positive weight per class, named by the classes; see [svforest_weights]."),
  na_action = list(alias = "na.action",
                   help = "`\"impute\"` (default) or `\"fail\"`: what missing predictor values do; see [svforest_missing_values]."),
  validation = list(help = "Validation data for the parts that choose their settings on them (method \"tdsvm\")."),
  importance = list(help = "Variable importance computed at fit time, see [svforest_importance()]."),
  calibrate = list(help = "Calibrated probabilities or prediction intervals, see [svforest_calibration]."),
  calibration_fraction = list(help = "Share of the rows held out for `calibrate` (default 0.25), see [svforest_calibration].")
)


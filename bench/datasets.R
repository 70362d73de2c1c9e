# The benchmark registry: every data set the harness (bench/harness.R) runs,
# classification and regression, each with one fixed train/test split.
# Sourced after bench_common.R. A loader returns
#   list(train = data.frame, test = data.frame, outcome = name of the outcome
#        column, split = how the rows were split)
# with the predictors as the data's own columns (factors and missing values
# kept: the harness hands them to each method as it is), a factor outcome
# for classification and a numeric one for regression. The split is the
# data's standard one where it has one, else 2/3 of the rows for training
# (stratified by class for classification) drawn with seed 2024.

# Rows for training: 2/3, stratified by class when y is a factor; R's random
# state is left as it was.
registry_split_rows <- function(y, frac = 2 / 3, seed = 2024L) {
  old <- if (exists(".Random.seed", envir = globalenv())) get(".Random.seed", envir = globalenv()) else NULL
  on.exit(if (!is.null(old)) assign(".Random.seed", old, envir = globalenv()))
  set.seed(seed)
  groups <- if (is.factor(y)) split(seq_along(y), droplevels(y)) else list(seq_along(y))
  sort(unlist(lapply(groups, function(idx) idx[sample.int(length(idx), max(1L, round(frac * length(idx))))]),
              use.names = FALSE))
}

# A data frame split by registry_split_rows() on its outcome column.
registry_split_frame <- function(d, outcome, split = NULL) {
  d <- as.data.frame(d)
  for (j in names(d)) if (is.character(d[[j]])) d[[j]] <- factor(d[[j]])
  if (is.factor(d[[outcome]])) d[[outcome]] <- droplevels(d[[outcome]])
  tr <- registry_split_rows(d[[outcome]])
  list(train = d[tr, , drop = FALSE], test = d[-tr, , drop = FALSE], outcome = outcome,
       split = if (is.null(split)) sprintf("%s 2/3-1/3 (seed 2024)", if (is.factor(d[[outcome]])) "stratified" else "random") else split)
}

# A loader of bench_common.R's classification_datasets() (numeric matrices)
# as data frames with outcome column "y".
registry_from_matrix <- function(loader) {
  force(loader)
  function() {
    s <- loader()
    if (isTRUE(s$sparse)) stop("sparse data sets are not part of the harness", call. = FALSE)
    frame <- function(x, y) {
      d <- as.data.frame(as.matrix(x))
      d$y <- y
      d
    }
    lev <- levels(s$ytr)
    list(train = frame(s$xtr, s$ytr), test = frame(s$xte, factor(as.character(s$yte), levels = lev)),
         outcome = "y", split = s$split)
  }
}

# A data set of the modeldata package.
modeldata_data <- function(name, object = name) {
  if (!requireNamespace("modeldata", quietly = TRUE)) stop("package modeldata not installed", call. = FALSE)
  env <- new.env()
  utils::data(list = name, package = "modeldata", envir = env)
  get(object, envir = env)
}

# Friedman's simulated regressions (mlbench), 1,000 training and 2,000 test rows.
registry_friedman <- function(fun, sd) {
  function() {
    make <- function(n, seed) {
      old <- if (exists(".Random.seed", envir = globalenv())) get(".Random.seed", envir = globalenv()) else NULL
      on.exit(if (!is.null(old)) assign(".Random.seed", old, envir = globalenv()))
      set.seed(seed)
      s <- getExportedValue("mlbench", fun)(n, sd = sd)
      d <- as.data.frame(s$x)
      names(d) <- paste0("x", seq_len(ncol(d)))
      d$y <- s$y
      d
    }
    list(train = make(1000, 1), test = make(2000, 2), outcome = "y", split = "simulated 1000 / 2000 rows")
  }
}

# --- survival: time-to-event sets (harness task "survival") ---------------------
# A survival set's loader returns its predictors and two outcome columns,
# `time` (> 0) and `status` (1 = event, 0 = censored); `outcome` is
# c("time", "status"). Its splits are random halves stratified by status:
# the registry's with seed 2024, then re-splits with seeds 2, 3, ... (the
# harness scores 10 by default; the aorsf benchmark used 25 random halves).
# Columns known only after baseline (cause of death, recurrence,
# progression) are dropped.
survival_sets <- function() {
  surv <- function(d, time, event, drop = character()) {
    d <- as.data.frame(d)
    out <- d[, setdiff(names(d), c(time, event, drop)), drop = FALSE]
    for (j in names(out)) if (is.character(out[[j]])) out[[j]] <- factor(out[[j]])
    out$time <- as.numeric(d[[time]])
    out$status <- as.integer(d[[event]])
    out[is.finite(out$time) & out$time > 0 & !is.na(out$status), , drop = FALSE]
  }
  data_of <- function(name) getExportedValue("survival", name)  # lazy data
  list(
    pbc = function() {
      d <- data_of("pbc")
      d$status <- as.integer(d$status == 2)  # death; transplant censors
      surv(d, "time", "status", drop = "id")
    },
    veteran = function() surv(data_of("veteran"), "time", "status"),
    lung = function() {
      d <- data_of("lung")
      d$status <- as.integer(d$status == 2)
      surv(d, "time", "status")
    },
    colon_death = function() {
      d <- data_of("colon")
      surv(d[d$etype == 2, ], "time", "status", drop = c("id", "study", "etype"))
    },
    # chapter is the cause of death: known only after the event
    flchain = function() surv(data_of("flchain"), "futime", "death", drop = "chapter"),
    # recurrence (rtime, recur) happens after baseline
    rotterdam_death = function() surv(data_of("rotterdam"), "dtime", "death", drop = c("pid", "rtime", "recur")),
    gbsg = function() surv(data_of("gbsg"), "rfstime", "status", drop = "pid"),
    # progression (ptime, pstat) happens after baseline
    mgus2 = function() surv(data_of("mgus2"), "futime", "death", drop = c("id", "ptime", "pstat")),
    nafld1 = function() surv(data_of("nafld1"), "futime", "status", drop = c("id", "case.id")),
    sim_linear = function() survival_simulated(p = 10, beta = c(1, -0.7, 0.5), n = 1000L, seed = 11L),
    sim_wide = function() survival_simulated(p = 200, beta = c(0.8, -0.8, 0.6, -0.6, 0.5), n = 1000L, seed = 12L)
  )
}

# Weibull event times whose log hazard is linear in the first predictors
# (beta), uniform censoring (about a third of the rows censored).
survival_simulated <- function(p, beta, n, seed) {
  old <- if (exists(".Random.seed", envir = globalenv())) get(".Random.seed", envir = globalenv()) else NULL
  on.exit(if (!is.null(old)) assign(".Random.seed", old, envir = globalenv()))
  set.seed(seed)
  x <- matrix(stats::rnorm(n * p), n, p, dimnames = list(NULL, paste0("x", seq_len(p))))
  lp <- drop(x[, seq_along(beta), drop = FALSE] %*% beta)
  event <- (-log(stats::runif(n)) / exp(lp))^(1 / 1.5) * 10
  censor <- stats::runif(n, 0, stats::quantile(event, 0.9) * 1.6)
  d <- as.data.frame(x)
  d$time <- pmax(pmin(event, censor), 1e-3)
  d$status <- as.integer(event <= censor)
  d
}

# Random halves of a survival set, stratified by status (seed 2024: the
# registry's split).
survival_split <- function(d, seed = 2024L) {
  old <- if (exists(".Random.seed", envir = globalenv())) get(".Random.seed", envir = globalenv()) else NULL
  on.exit(if (!is.null(old)) assign(".Random.seed", old, envir = globalenv()))
  set.seed(seed)
  test <- unlist(lapply(split(seq_len(nrow(d)), d$status), function(i) i[sample.int(length(i), floor(length(i) / 2))]),
                 use.names = FALSE)
  list(train = d[-test, , drop = FALSE], test = d[test, , drop = FALSE], outcome = c("time", "status"),
       split = "random halves stratified by status")
}

# The registry entries of the survival sets (benchmark_registry()).
survival_registry <- function() {
  lapply(survival_sets(), function(load) {
    force(load)
    list(task = "survival", source = "survival", load = function() survival_split(load()))
  })
}

# The registry: name -> list(task, source, load).
benchmark_registry <- function(data_dir) {
  cls <- classification_datasets(data_dir)
  matrix_sets <- c("iris", "wine", "wdbc", "sonar", "glass", "ionosphere", "pima", "breastcancer", "vehicle",
                   "vowel", "dna", "satellite", "spam", "segment", "cmc", "urban_land_cover", "winequality_red",
                   "madelon", "optdigits", "pendigits", "letter")
  reg <- list()
  for (nm in matrix_sets) reg[[nm]] <- list(task = "classification", source = "bench_common.R", load = registry_from_matrix(cls[[nm]]))
  add <- function(name, task, source, load) reg[[name]] <<- list(task = task, source = source, load = load)
  md <- function(name, outcome, drop = character(), transform = identity) {
    force(transform)
    function() {
      d <- transform(as.data.frame(modeldata_data(name)))
      registry_split_frame(d[, setdiff(names(d), drop), drop = FALSE], outcome)
    }
  }
  # --- classification: tables with factor columns and missing values (modeldata)
  add("credit_data", "classification", "modeldata", md("credit_data", "Status"))
  add("attrition", "classification", "modeldata", md("attrition", "Attrition"))
  add("mlc_churn", "classification", "modeldata", md("mlc_churn", "churn"))
  add("hpc_data", "classification", "modeldata", md("hpc_data", "class"))
  add("penguins", "classification", "modeldata", md("penguins", "species"))
  add("ad_data", "classification", "modeldata", md("ad_data", "Class"))
  add("lending_club", "classification", "modeldata", md("lending_club", "Class"))
  add("two_class_dat", "classification", "modeldata", md("two_class_dat", "Class"))
  add("bivariate", "classification", "modeldata", function() {
    tr <- modeldata_data("bivariate", "bivariate_train")
    te <- modeldata_data("bivariate", "bivariate_test")
    list(train = as.data.frame(tr), test = as.data.frame(te), outcome = "Class", split = "modeldata bivariate_train / bivariate_test")
  })
  add("cells", "classification", "modeldata", function() {
    d <- as.data.frame(modeldata_data("cells"))
    tr <- d$case == "Train"
    d$case <- NULL
    list(train = d[tr, ], test = d[!tr, ], outcome = "class", split = "modeldata cells$case Train / Test")
  })
  add("pd_speech", "classification", "modeldata", md("pd_speech", "class"))
  # --- regression
  add("friedman1", "regression", "mlbench", registry_friedman("mlbench.friedman1", 1))
  add("friedman2", "regression", "mlbench", registry_friedman("mlbench.friedman2", 125))
  add("friedman3", "regression", "mlbench", registry_friedman("mlbench.friedman3", 0.1))
  add("boston", "regression", "mlbench", function() registry_split_frame(mlbench_data("BostonHousing"), "medv"))
  add("ozone", "regression", "mlbench", function() {
    d <- mlbench_data("Ozone")
    registry_split_frame(d[!is.na(d$V4), ], "V4")
  })
  add("airquality", "regression", "datasets", function() {
    d <- datasets::airquality
    registry_split_frame(d[!is.na(d$Ozone), ], "Ozone")
  })
  add("wine_red_quality", "regression", "../shared/data", function() {
    d <- utils::read.csv(file.path(data_dir, "winequality", "winequality-red.csv"), sep = ";")
    registry_split_frame(d, "quality")
  })
  add("wine_white_quality", "regression", "../shared/data", function() {
    d <- utils::read.csv(file.path(data_dir, "winequality", "winequality-white.csv"), sep = ";")
    registry_split_frame(d, "quality")
  })
  add("diamonds", "regression", "ggplot2", function() {
    d <- as.data.frame(getExportedValue("ggplot2", "diamonds"))
    for (j in c("cut", "color", "clarity")) d[[j]] <- factor(as.character(d[[j]]))  # unordered
    d <- d[registry_split_rows(d$price, frac = 6000 / nrow(d), seed = 7L), ]
    registry_split_frame(d, "price", "6,000 random rows (seed 7), random 2/3-1/3 (seed 2024)")
  })
  add("ames", "regression", "modeldata", md("ames", "Sale_Price", transform = function(d) {
    d$Sale_Price <- log10(d$Sale_Price)
    d
  }))
  add("concrete", "regression", "modeldata", md("concrete", "compressive_strength"))
  add("meats_fat", "regression", "modeldata", md("meats", "fat", drop = c("water", "protein")))
  add("biomass", "regression", "modeldata", md("biomass", "HHV", drop = c("sample", "dataset")))
  add("sacramento", "regression", "modeldata", md("Sacramento", "price", drop = "zip", transform = function(d) {
    d$price <- log10(d$price)
    d
  }))
  add("car_prices", "regression", "modeldata", md("car_prices", "Price"))
  add("chicago", "regression", "modeldata", md("Chicago", "ridership", drop = "date"))
  c(reg, survival_registry())
}

# --- the splits and the data as each method takes it (harness.R and
# default_variants.R) ------------------------------------------------------------
# Unseen test levels become NA (every method gets the same rows).
align_levels <- function(train, test) {
  for (j in names(train)) if (is.factor(train[[j]])) {
    v <- as.character(test[[j]])
    v[!v %in% levels(train[[j]])] <- NA
    test[[j]] <- factor(v, levels = levels(train[[j]]))
  }
  test
}
# Training medians and most frequent levels in place of NA (ranger, grf).
impute_like <- function(train, test, cols) {
  for (j in cols) {
    fill <- if (is.factor(train[[j]])) names(which.max(table(train[[j]])))
            else stats::median(as.numeric(train[[j]]), na.rm = TRUE)
    if (is.na(fill) || length(fill) == 0) fill <- if (is.factor(train[[j]])) levels(train[[j]])[1] else 0
    for (d in c("train", "test")) {
      v <- get(d)
      if (is.logical(v[[j]])) v[[j]] <- as.numeric(v[[j]])
      v[[j]][is.na(v[[j]])] <- fill
      assign(d, v)
    }
  }
  list(train = train, test = test)
}

# Split r of a registry set: r = 1 the registry's, r > 1 a re-split of the
# pooled rows with as many test rows (stratified by class), seed r; for a
# survival set random halves stratified by status, seed r.
resplit <- function(s, r) {
  if (r == 1L) return(s)
  all <- rbind(s$train, s$test)
  if (identical(s$outcome, c("time", "status"))) return(survival_split(all, seed = r))
  y <- all[[s$outcome]]
  set.seed(r)
  test <- if (is.numeric(y)) sample.int(nrow(all), nrow(s$test))
          else unlist(lapply(split(seq_len(nrow(all)), droplevels(y)), function(i) {
            i[sample.int(length(i), round(length(i) * nrow(s$test) / nrow(all)))]
          }), use.names = FALSE)
  s$train <- all[-test, , drop = FALSE]
  s$test <- align_levels(s$train, all[test, , drop = FALSE])
  s
}

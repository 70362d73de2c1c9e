# Issue 60: what a survival user meets in the first hour. Event-time
# outcomes (survival and competing risks) as a new user gives them: the
# event factor read as survival::Surv() reads it, a numeric status of
# competing risks, zero-row predictions, plot() and summary(), damaged
# models, the messages that point to what a forest supports.
skip_if_not_installed("survival")
Surv <- survival::Surv

# n rows of two competing causes whose hazards grow with x1 (cause 1) and x2
# (cause 2), censored at rate 0.3; the event factor's levels are `levels`.
sim_competing <- function(n = 120, levels = c("censored", "relapse", "death"), seed = 1) {
  set.seed(seed)
  x <- data.frame(x1 = stats::rnorm(n), x2 = stats::rnorm(n), x3 = stats::rnorm(n))
  t1 <- stats::rexp(n, 0.5 * exp(x$x1))
  t2 <- stats::rexp(n, 0.5 * exp(x$x2))
  cens <- stats::rexp(n, 0.3)
  code <- ifelse(cens < pmin(t1, t2), 0L, ifelse(t1 < t2, 1L, 2L))
  x$time <- round(pmin(t1, t2, cens), 2) + 0.01
  x$event <- factor(levels[code + 1L], levels)
  x
}

test_that("any first level of an event factor is censoring, as in survival::Surv()", {
  d <- sim_competing()
  ref <- svforest(Surv(time, event) ~ x1 + x2 + x3, data = d, ntree = 3, seed = 1, num_threads = 1)
  for (first in c("c", "lost to follow-up", "zensiert")) {
    renamed <- d
    levels(renamed$event)[1] <- first
    # survival reads the first level as censoring whatever its name
    expect_identical(attr(Surv(renamed$time, renamed$event), "states"), c("relapse", "death"))
    fit <- svforest(Surv(time, event) ~ x1 + x2 + x3, data = renamed, ntree = 3, seed = 1, num_threads = 1)
    expect_identical(fit$forest, ref$forest, info = first)
    expect_identical(fit$competing$causes, c("relapse", "death"))
    # the x/y form too: a data frame of the time and the event factor
    xy <- svforest(renamed[c("x1", "x2", "x3")], renamed[c("time", "event")], ntree = 3, seed = 1, num_threads = 1)
    expect_identical(xy$forest, ref$forest, info = first)
  }
  # a level named as censoring after the first is censoring misplaced, not a cause
  misplaced <- d
  misplaced$event <- factor(as.character(d$event), c("relapse", "censored", "death"))
  expect_error(svforest(Surv(time, event) ~ x1, data = misplaced, ntree = 2),
               "\"relapse\" is read as censoring and \"censored\" as a cause; put censoring first")
  # the help says so
  rd <- tools::Rd_db("svforest")[["svforest_competing.Rd"]]
  expect_match(paste(as.character(rd), collapse = ""), "first level is censoring, whatever its name")
})

test_that("a numeric status of three values (pbc's 0/1/2) is an error that names competing risks and the fix", {
  pbc <- survival::pbc[1:312, c("time", "status", "age", "bili", "albumin")]
  # the formula: the fix in the user's own names, before Surv() warns
  expect_warning(tryCatch(svforest(Surv(time, status) ~ ., data = pbc, ntree = 2), error = function(e) NULL), NA)
  err <- tryCatch(svforest(Surv(time, status) ~ ., data = pbc, ntree = 2), error = conditionMessage)
  expect_match(err, "The status of Surv\\(time, status\\) has 3 values \\(0, 1, 2\\)")
  expect_match(err, "competing risks", fixed = TRUE)
  expect_match(err, "Surv(time, factor(status, 0:2, c(\"censored\", \"cause_1\", \"cause_2\")))", fixed = TRUE)
  expect_match(err, "Surv(time, status == 2)", fixed = TRUE)
  expect_error(svforest(survival::Surv(time, event = status) ~ ., data = pbc, ntree = 2), "has 3 values")
  # a status that is no code at all (a measurement given by mistake) is not called competing risks
  expect_error(svforest(Surv(time, bili) ~ age, data = pbc, ntree = 2),
               "The status of Surv\\(time, bili\\) has [0-9]+ distinct values .*: a survival status is 0/1")
  # the fix it shows fits a competing-risks forest
  fix <- svforest(Surv(time, factor(status, 0:2, c("censored", "transplant", "death"))) ~ age + bili + albumin,
                  data = pbc, ntree = 3, seed = 1, num_threads = 1)
  expect_identical(fix$type, "competing")
  expect_identical(fix$competing$causes, c("transplant", "death"))
  # x/y: Surv() has already made the censored rows' status missing; the message says why and shows the fix
  y <- suppressWarnings(Surv(pbc$time, pbc$status))
  err <- tryCatch(svforest(pbc[3:5], y, ntree = 2), error = conditionMessage)
  expect_match(err, "168 missing status values")
  expect_match(err, "competing risks give the event as a factor whose first level is censoring")
  expect_match(err, "Surv(time, factor(status, 0:2, c(\"censored\", \"transplant\", \"death\")))", fixed = TRUE)
  # 0/1 and 1/2 statuses are survival, as before
  ok <- svforest(Surv(time, status == 2) ~ ., data = pbc, ntree = 2, seed = 1, num_threads = 1)
  expect_identical(ok$type, "survival")
  lung <- survival::lung
  expect_identical(svforest(Surv(time, status) ~ age + sex, data = lung, ntree = 2, num_threads = 1)$type, "survival")
})

test_that("predict() of a competing-risks forest on 0 rows gives 0-row results of every type", {
  d <- sim_competing()
  fit <- svforest(Surv(time, event) ~ x1 + x2 + x3, data = d, ntree = 3, seed = 1, num_threads = 1)
  none <- d[0, ]
  one <- d[1, ]
  calls <- list(list(type = "cif"), list(type = "cif", cause = "death"), list(type = "cif", times = c(1, 2)),
                list(type = "chf"), list(type = "chf", cause = 1), list(type = "survival"),
                list(type = "survival", times = 3), list(type = "risk"), list(type = "risk", cause = "relapse"),
                list(type = "leaf"))
  for (args in calls) {
    info <- paste(names(args), unlist(args), collapse = " ")
    p0 <- do.call(predict, c(list(fit, none), args))
    p1 <- do.call(predict, c(list(fit, one), args))
    expect_identical(NROW(p0), 0L, info = info)
    if (is.null(dim(p1))) {
      expect_identical(p0, p1[0], info = info)
    } else {
      expect_identical(dim(p0)[-1], dim(p1)[-1], info = info)
      expect_identical(dimnames(p0)[-1], dimnames(p1)[-1], info = info)
      expect_identical(attr(p0, "times"), attr(p1, "times"), info = info)
    }
  }
  # as a survival forest's
  surv <- svforest(Surv(time, event != "censored") ~ x1 + x2, data = d, ntree = 3, seed = 1, num_threads = 1)
  expect_identical(dim(predict(surv, none, type = "survival")), dim(predict(fit, none, type = "survival")))
})

# The texts a plot draws (titles, axis and bar names, legends), read from
# the device's display list.
drawn_text <- function(expr) {
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  grDevices::dev.control("enable")
  force(expr)
  ops <- grDevices::recordPlot()[[1]]
  unname(unlist(lapply(ops, function(op) if (is.list(op[[2]])) Filter(is.character, op[[2]]))))
}

test_that("plot() of event-time forests labels their own statistics and draws no SVM-leaf panel", {
  d <- sim_competing(150)
  cr <- svforest(Surv(time, event) ~ x1 + x2 + x3, data = d, ntree = 4, seed = 1, num_threads = 1)
  text <- drawn_text(plot(cr))
  expect_true("Wolbers' C" %in% text)
  expect_true("Integrated Brier score" %in% text)
  expect_true(all(c("relapse", "death") %in% text))
  expect_false(any(grepl("Harrell", text)))
  expect_false(any(grepl("SVM", text)))
  expect_true(any(grepl("^Leaves' CIF at time ", text)))
  surv <- svforest(Surv(time, status) ~ age + sex + ph.ecog, data = survival::lung, ntree = 4, seed = 1,
                   num_threads = 1)
  text <- drawn_text(plot(surv))
  expect_true(all(c("Harrell's C", "Integrated Brier score", "Leaves' survival S(t) at event-time quartiles") %in% text))
  expect_false(any(grepl("SVM|Wolbers|\\.", text[grepl("C", text)])))
  expect_false(any(grepl("SVM", text)))
  # with held-out rows the last panel is the error curve, labelled by the forest's statistic
  text <- drawn_text(plot(cr, newdata = d, y = Surv(d$time, d$event)))
  expect_true("1 - Wolbers' C (relapse) on newdata vs trees" %in% text)
  # the outcome as svforest(x, y) takes it: a data frame of the time and the event factor
  expect_identical(drawn_text(plot(cr, newdata = d, y = d[c("time", "event")])), text)
  lung <- na.omit(survival::lung)[1:60, ]
  expect_true("1 - Harrell's C on newdata vs trees" %in%
                drawn_text(plot(surv, newdata = lung, y = Surv(lung$time, lung$status))))
  # a classification forest keeps its SVM panels
  rsvt <- svforest(Species ~ ., data = iris, method = "rsvt", ntree = 3, seed = 1, num_threads = 1)
  expect_true("C chosen in SVM leaves" %in% drawn_text(plot(rsvt)))
})

test_that("a damaged num_features or competing$time_max names the section", {
  d <- sim_competing(80)
  cr <- svforest(Surv(time, event) ~ x1 + x2 + x3, data = d, ntree = 2, seed = 1, num_threads = 1)
  surv <- svforest(Surv(time, status) ~ age + sex, data = survival::lung, ntree = 2, seed = 1, num_threads = 1)
  reg <- svforest(mpg ~ ., data = mtcars, ntree = 2, seed = 1, num_threads = 1)
  cls <- svforest(Species ~ ., data = iris, ntree = 2, seed = 1, num_threads = 1)
  fits <- list(list(cr, d[1:3, ]), list(surv, survival::lung[1:3, ]), list(reg, mtcars[1:3, ]),
               list(cls, iris[1:3, ]))
  for (case in fits) {
    for (bad in list(NULL, NA_integer_, NA_real_, "a", 1.5, 0L, -1L, c(1L, 2L), list(1L), 100L)) {
      m <- case[[1]]
      m$forest$num_features <- bad
      expect_error(predict(m, case[[2]]), "not a usable svforest model: 'forest\\$num_features' .*\\(section 'forest'\\)",
                   info = paste(m$type, deparse(bad)))
    }
  }
  for (bad in list(NULL, NA, NA_real_, NaN, Inf, "a", -1, 0, c(1, 2))) {
    m <- cr
    m$competing$time_max <- bad
    expect_error(predict(m, d[1:3, ]), "not a usable svforest model: 'competing' .*\\(section 'outcome'\\)",
                 info = deparse(bad))
  }
})

test_that("help, README and messages speak of competing risks as a family with its own types", {
  rd <- function(topic) paste(as.character(tools::Rd_db("svforest")[[topic]]), collapse = "")
  help <- rd("svforest.Rd")
  expect_match(help, "competing risks")
  expect_match(help, "svforest_competing")
  expect_match(help, "type = \"cif\"", fixed = TRUE)
  readme <- test_path("..", "..", "README.md")
  cran <- test_path("..", "..", ".ci", "install-cran.R")
  if (file.exists(readme) && file.exists(cran)) {  # a source tree, not an installed package
    text <- paste(readLines(readme), collapse = "\n")
    expect_false(grepl("not yet a family", text))
    expect_false(grepl("about 25 packages", text))
    # every package install-cran.R installs by name is named where the README counts them
    script <- parse(cran)
    named <- unlist(lapply(script, function(e) {
      if (is.call(e) && identical(e[[1]], as.name("<-")) && as.character(e[[2]]) %in% c("targets", "optional")) eval(e[[3]])
    }))
    expect_gt(length(named), 10)
    deps <- sub("\n## Reliability.*", "", sub(".*`make deps` installs from CRAN", "", text))
    for (p in named) expect_match(deps, p, fixed = TRUE, info = p)
  }
  d <- sim_competing(80)
  cr <- svforest(Surv(time, event) ~ x1 + x2 + x3, data = d, ntree = 2, seed = 1, num_threads = 1)
  surv <- svforest(Surv(time, event != "censored") ~ x1 + x2 + x3, data = d, ntree = 2, seed = 1, num_threads = 1)
  # ranger's predict.all: type = "trees" only where the forest has it
  err <- tryCatch(predict(cr, d, predict.all = TRUE), error = conditionMessage)
  expect_match(err, "this forest has no such type (its types: \"cif\", \"chf\", \"survival\", \"risk\", \"leaf\")",
               fixed = TRUE)
  expect_false(grepl("here", err))
  expect_error(predict(surv, d, predict.all = TRUE), "`predict.all` is `type = \"trees\"` here", fixed = TRUE)
  # an argument of other types names the forest's own types that take it
  expect_error(predict(cr, d, type = "risk", times = 1),
               "`times` is used only with type = \"cif\" or type = \"chf\" or type = \"survival\".", fixed = TRUE)
  # svforest_shap(): what it supports, and what explains an event-time forest
  for (fit in list(cr, surv)) {
    err <- tryCatch(svforest_shap(fit, d[1:3, ]), error = conditionMessage)
    expect_match(err, "svforest_shap() gives the exact attributions of linear leaves", fixed = TRUE)
    expect_match(err, "kernelshap(fit, X, bg_X)", fixed = TRUE)
    expect_false(grepl("must be one of", err))
  }
  expect_error(svforest_shap(cr, d[1:3, ]), "type = \"risk\", cause = 1)", fixed = TRUE)
  # summary(): one blank line after the title, none before the leaves' lines
  for (fit in list(cr, surv)) {
    out <- capture.output(print(summary(fit)))
    expect_identical(out[2], "")
    expect_match(out[3], "^Leaves per tree")
    expect_false(any(out[-2] == ""))
  }
  cls <- capture.output(print(summary(svforest(Species ~ ., iris, ntree = 2, seed = 1, num_threads = 1))))
  expect_identical(cls[2:3], c("", "Class counts:"))
  expect_false(any(cls[-1] == "" & c(cls[-1][-1], "x") == ""))  # never two blank lines in a row
})

test_that("edge inputs of event-time outcomes get errors that say what to do", {
  lung <- survival::lung
  x <- lung[c("age", "sex")]
  fit_y <- function(y) svforest(x, y, ntree = 2, num_threads = 1)
  expect_error(fit_y(Surv(replace(lung$time, 3, 0), lung$status)),
               "1 time of 0; survival times must be positive: an event or censoring on the day of entry")
  expect_error(fit_y(Surv(replace(lung$time, 3:4, -1), lung$status)), "2 negative times")
  expect_error(fit_y(Surv(replace(lung$time, 3, NA), lung$status)), "1 missing times; .*drop those rows")
  # a data frame of a time and a numeric status is not an outcome: the message names the ones that are
  expect_error(fit_y(lung[c("time", "status")]), "survival::Surv\\(time, status\\) \\(survival\\) or Surv\\(time, event\\)")
  d <- sim_competing(80)
  zero <- d
  zero$time[1:2] <- 0
  expect_error(svforest(Surv(time, event) ~ x1, data = zero, ntree = 2), "2 times of 0; competing-risks times")
  censored <- d
  censored$event[] <- "censored"
  expect_error(svforest(Surv(time, event) ~ x1, data = censored, ntree = 2),
               "every row is censored \\(the event factor's first level, \"censored\"\\)")
  unused <- d
  unused$event <- factor(as.character(d$event), c("censored", "relapse", "death", "stroke", "fall"))
  expect_error(svforest(Surv(time, event) ~ x1, data = unused, ntree = 2),
               "causes \"stroke\", \"fall\" have no events; drop the unused levels before fitting \\(droplevels\\(\\)\\)")
  expect_identical(svforest(Surv(time, droplevels(event)) ~ x1, data = unused, ntree = 2, seed = 1,
                            num_threads = 1)$competing$causes, c("relapse", "death"))
  # one cause is ordinary survival: the message shows it
  two <- d
  two$event <- factor(ifelse(d$event == "censored", "alive", "dead"), c("alive", "dead"))
  expect_error(svforest(Surv(time, event) ~ x1, data = two, ntree = 2), "e.g. Surv(time, event == \"dead\")", fixed = TRUE)
  expect_identical(svforest(Surv(time, event == "dead") ~ x1, data = two, ntree = 2, num_threads = 1)$type, "survival")
  # tidymodels' and aorsf's name for the times
  cr <- svforest(Surv(time, event) ~ x1 + x2, data = d, ntree = 2, seed = 1, num_threads = 1)
  expect_error(predict(cr, d, eval_time = 1), "`eval_time` is called `times` here")
  expect_error(predict(cr, d, type = "cif", time = 1), "`time` is called `times` here")
  # one row's risk of one cause is a plain number, as many rows' are plain numbers
  expect_null(names(predict(cr, d[1, ], type = "risk", cause = "death")))
})

test_that("print() of an event-time forest counts one event as one, and says why a C is not available", {
  lung <- survival::lung
  one <- lung
  one$status <- ifelse(seq_len(nrow(lung)) == 5, 2, 1)  # one death
  fit <- svforest(Surv(time, status) ~ age + sex, data = one, ntree = 5, seed = 1, num_threads = 1)
  out <- capture.output(print(fit))
  expect_true(any(grepl("survival \\(right-censored; 1 event\\)$", out)))
  expect_true(any(grepl("not available \\(no comparable pair of out-of-bag rows: too few events\\)", out)))
  expect_true(any(grepl("OOB performance: not available \\(no comparable pair", capture.output(print(summary(fit))))))
  d <- sim_competing(80)
  d$event[d$event == "death"][-1] <- "censored"  # one death
  cr <- svforest(Surv(time, event) ~ x1 + x2, data = d, ntree = 3, seed = 1, num_threads = 1)
  expect_true(any(grepl("death: 1 event\\)$", capture.output(print(cr)))))
  # a forest without out-of-bag rows still says so
  all_rows <- svforest(Species ~ ., iris, ntree = 2, seed = 1, num_threads = 1, sampler = "all")
  expect_true(any(grepl("not available \\(no out-of-bag rows\\)", capture.output(print(all_rows)))))
})

test_that("case weights that leave a cause without events say so", {
  d <- sim_competing(100)
  w <- ifelse(d$event == "death", 0, 1)
  expect_error(svforest(Surv(time, event) ~ x1, data = d, ntree = 2, case_weights = w),
               "Among the rows of positive `case_weights`, cause \"death\" has no events")
  w <- ifelse(d$event == "censored", 1, 0)
  expect_error(svforest(Surv(time, event) ~ x1, data = d, ntree = 2, case_weights = w),
               "Among the rows of positive `case_weights`, every row is censored")
})

test_that("plot(what = \"importance\") names what the importance measures, and offers what the forest has", {
  lung <- na.omit(survival::lung)
  surv <- svforest(Surv(time, status) ~ age + sex + ph.ecog, data = lung, ntree = 4, seed = 1, num_threads = 1,
                   importance = "permutation")
  expect_true("mean decrease in Harrell's C" %in% drawn_text(plot(surv, what = "importance")))
  reg <- svforest(mpg ~ ., data = mtcars, ntree = 4, seed = 1, num_threads = 1, importance = "permutation")
  expect_true("mean increase in squared error" %in% drawn_text(plot(reg, what = "importance")))
  cls <- svforest(Species ~ ., data = iris, ntree = 4, seed = 1, num_threads = 1, importance = "permutation")
  expect_true("mean decrease in accuracy" %in% drawn_text(plot(cls, what = "importance")))
  # a competing-risks forest has no fit-time permutation importance: the message does not offer one
  d <- sim_competing(80)
  cr <- svforest(Surv(time, event) ~ x1 + x2, data = d, ntree = 2, seed = 1, num_threads = 1)
  err <- tryCatch(plot(cr, what = "importance"), error = conditionMessage)
  expect_match(err, "fit with `importance = \"coefficients\"`", fixed = TRUE)
  expect_false(grepl("importance = \"permutation\"", err, fixed = TRUE))
  coef <- svforest(Surv(time, event) ~ x1 + x2, data = d, ntree = 2, seed = 1, num_threads = 1,
                   importance = "coefficients")
  expect_true("mean |coefficient| (scaled predictors)" %in% drawn_text(plot(coef, what = "importance")))
})

test_that("new rows' outcome is read by cause label: another level order scores the same causes", {
  d <- sim_competing(200)
  fit <- svforest(Surv(time, event) ~ x1 + x2 + x3, data = d, ntree = 6, seed = 1, num_threads = 1)
  reordered <- d
  reordered$event <- factor(as.character(d$event), c("censored", "death", "relapse"))
  imp <- svforest_importance(fit, d)
  expect_identical(svforest_importance(fit, reordered), imp)
  expect_identical(svforest_importance(fit, d[c("x1", "x2", "x3")], reordered[c("time", "event")]), imp)
  curve <- svforest:::competing_error_curve(fit, d, Surv(d$time, d$event))
  expect_identical(svforest:::competing_error_curve(fit, d, Surv(reordered$time, reordered$event)), curve)
  # rows without one cause's events, or whose factor lacks its level, are scored too
  no_death <- d[d$event != "death", ]
  no_death$event <- droplevels(no_death$event)
  expect_identical(dim(svforest_importance(fit, no_death)), c(3L, 2L))
  # a cause the model does not know is an error, not another cause's score
  other <- d
  other$event <- factor(sub("death", "stroke", as.character(d$event)), c("censored", "relapse", "stroke"))
  expect_error(svforest_importance(fit, other), "cause \"stroke\" that the model does not know \\(its causes: \"relapse\", \"death\"\\)")
})

test_that("a Surv outcome where another is needed is named as a Surv, not as a vector", {
  d <- sim_competing(80)
  cr <- svforest(Surv(time, event) ~ x1 + x2, data = d, ntree = 2, seed = 1, num_threads = 1)
  single <- Surv(d$time, d$event != "censored")
  expect_error(svforest_importance(cr, d[c("x1", "x2")], single),
               "must be a competing-risks outcome \\(Surv\\(time, event\\) with an event factor\\), not a Surv object of type \"right\" \\(80 rows\\)")
  expect_error(plot(cr, newdata = d, y = single), "not a Surv object of type \"right\" \\(80 rows\\)")
})

test_that("a competing-risks leaf is labelled by every cause's incidence at the middle time", {
  d <- sim_competing(150)
  cr <- svforest(Surv(time, event) ~ x1 + x2 + x3, data = d, ntree = 2, seed = 1, num_threads = 1)
  tab <- svforest_tree(cr, 1)
  leaf <- which(!is.na(tab$leaf))
  expect_true(all(grepl("^CIF relapse [0-9]\\.[0-9]{2}, death [0-9]\\.[0-9]{2} \\(at [0-9.]+\\)$", tab$label[leaf])))
  # the middle of each cause's three points
  pred <- tab$prediction[[leaf[1]]]
  expect_identical(tab$label[leaf[1]], sprintf("CIF relapse %.2f, death %.2f (at %s)", pred[[2]], pred[[5]],
                                               sub("^.*\\((.*)\\)$", "\\1", names(pred)[2])))
  surv <- svforest(Surv(time, event != "censored") ~ x1 + x2, data = d, ntree = 2, seed = 1, num_threads = 1)
  tab <- svforest_tree(surv, 1)
  expect_true(all(grepl("^S\\([0-9.]+\\) [0-9]\\.[0-9]{2}$", tab$label[!is.na(tab$leaf)])))
})

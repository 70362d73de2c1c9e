# Competing-risks outcomes, the input side (R/outcome-competing.R): the two
# forms, the engine's numeric form and the bad-input catalogue.
skip_if_not_installed("survival")
Surv <- survival::Surv
competing_outcome <- svforest:::competing_outcome
is_competing_outcome <- svforest:::is_competing_outcome

cr_event <- function(codes, levels = c("censored", "relapse", "death")) factor(levels[codes + 1L], levels = levels)

test_that("Surv(time, event) with a factor event converts to time, status 0..K and the causes", {
  time <- c(5, 3, 8, 1, 4, 4)
  ev <- cr_event(c(1, 0, 2, 1, 2, 0))
  y <- Surv(time, ev)
  expect_true(is_competing_outcome(y))
  out <- competing_outcome(y)
  expect_identical(out$time, time)
  expect_identical(out$status, c(1L, 0L, 2L, 1L, 2L, 0L))
  expect_identical(out$causes, c("relapse", "death"))
  expect_identical(out$cause, 1L)
  expect_identical(competing_outcome(y, cause = "death")$cause, 2L)
  expect_identical(competing_outcome(y, cause = 2)$cause, 2L)
  # a numeric status with type = "mstate": 0 censoring, causes "1", "2"
  num <- competing_outcome(Surv(time, c(1, 0, 2, 1, 2, 0), type = "mstate"))
  expect_identical(num$status, out$status)
  expect_identical(num$causes, c("1", "2"))
})

test_that("the x/y form (a numeric time and an event factor) gives the same", {
  time <- c(5, 3, 8, 1, 4, 4)
  ev <- cr_event(c(1, 0, 2, 1, 2, 0))
  y <- data.frame(time = time, event = ev)
  expect_true(is_competing_outcome(y))
  expect_true(is_competing_outcome(list(event = ev, t = time)))
  expect_identical(competing_outcome(y), competing_outcome(Surv(time, ev)))
  expect_false(is_competing_outcome(Surv(time, c(1, 0, 1, 1, 0, 0))))
  expect_false(is_competing_outcome(data.frame(time = time, status = c(1, 0, 1, 1, 0, 0))))
  expect_false(is_competing_outcome(time))
})

test_that("bad competing-risks input gets a clear error", {
  time <- c(5, 3, 8, 1, 4, 4)
  ev <- cr_event(c(1, 0, 2, 1, 2, 0))
  # the event factor's first level is censoring: "censored" later is misplaced
  bad_first <- factor(as.character(ev), levels = c("relapse", "censored", "death"))
  expect_error(competing_outcome(Surv(time, bad_first)), "\"relapse\" is read as censoring and \"censored\" as a cause")
  expect_error(competing_outcome(data.frame(time = time, event = bad_first)), "put censoring first")
  # a cause not among the levels
  expect_error(competing_outcome(Surv(time, ev), cause = "stroke"), "\"stroke\" is not among the causes: \"relapse\", \"death\"")
  expect_error(competing_outcome(Surv(time, ev), cause = 3), "is not among the causes")
  # Surv(entry, exit, event): delayed entry (issue #59), the entry times kept
  expect_identical(competing_parts(Surv(c(0, 0, 2, 0, 0, 0), time + 1, ev))$entry, c(0, 0, 2, 0, 0, 0))
  # multi-state data with transitions
  expect_error(competing_outcome(Surv(time, ev), id = c(1, 1, 2, 3, 4, 5)), "repeats subjects.*not competing risks")
  expect_error(competing_outcome(Surv(time, ev), istate = c("a", "a", "b", "a", "a", "a")),
               "more than one initial state")
  expect_error(competing_outcome(Surv(time, ev), id = 1:3), "one value per row")
  # times
  expect_error(competing_outcome(data.frame(time = c(NA, time[-1]), event = ev)), "missing values \\(1 row\\)")
  expect_error(competing_outcome(data.frame(time = c(-1, time[-1]), event = ev)), "must not be negative")
  expect_error(competing_outcome(data.frame(time = c(Inf, time[-1]), event = ev)), "must be finite")
  expect_error(competing_outcome(data.frame(time = time, event = factor(c(NA, as.character(ev[-1])),
                                                                          levels = levels(ev)))),
               "event has missing values")
  # one cause: ordinary survival
  one <- factor(c("censored", "death")[c(2, 1, 2, 2, 1, 1)], levels = c("censored", "death"))
  expect_error(competing_outcome(Surv(time, one)), "one cause only.*ordinary survival")
  # a declared cause without events
  empty <- factor(as.character(ev), levels = c("censored", "relapse", "death", "stroke"))
  expect_error(competing_outcome(Surv(time, empty)), "\"stroke\" has no events")
  # not competing risks at all
  expect_error(competing_outcome(Surv(time, c(1, 0, 1, 1, 0, 0))), "type \"right\" is ordinary survival")
  expect_error(competing_outcome(time), "a competing-risks outcome is Surv\\(time, event\\)")
})

# Delayed entry (issue #59): Surv(entry, exit, event) and `id`.
#   R_LIBS=<library> Rscript bench/delayed_entry.R [--threads=2] [--reps=3] [--ntree=100] [--parts=1234]
# (`--parts=3`: only the third check, e.g. with more repetitions)
# Four checks, printed as text (bench/results/delayed_entry.txt):
# 1. A left-truncated simulation with a nonlinear hazard and known truth:
#    subjects enter at E ~ U(0, 1.5) and are seen only when their event time
#    T > E; hazard exp(f(x)) constant in time, f nonlinear. The mean squared
#    distance of each fit's S(t | x) to the truth exp(-exp(f(x)) t) over
#    untruncated test subjects and times at the observed exits' 10..90%
#    quantiles: the forest with entry, the same forest ignoring entry
#    (Surv(exit, event)), and coxph(Surv(entry, exit, event) ~ x).
# 2. A real cohort on the age time scale: survival::flchain, entry = age,
#    exit = age + futime / 365.25, event = death (complete cases);
#    random 70/30 splits, held-out Harrell's C (survival::concordance on
#    the counting-process outcome) of the forest and of coxph.
# 3. `id`: each simulated subject's follow-up split into two counting-process
#    rows at a random time; the forest with `id` against the forest on one
#    row per subject: held-out C (test subjects, one row each) and out-of-bag
#    C. Without `id` the two rows of a subject fall on both sides of a
#    tree's sample, for comparison.
# 4. Competing risks with delayed entry: two causes of constant hazards
#    exp(f_k(x)) (f_1 nonlinear), subjects entering at E ~ U(0, 1.5) and
#    seen only when their first event is after E; the mean squared distance
#    of each cause's CIF(t | x) to the truth over untruncated test subjects
#    and times at the observed exits' 10..90% quantiles: the forest with
#    entry against the same forest ignoring entry (Surv(exit, cause)).
suppressPackageStartupMessages({
  library(survival)
  library(svforest)
})
args <- commandArgs(trailingOnly = TRUE)
arg <- function(name, default) {
  hit <- grep(sprintf("^--%s=", name), args, value = TRUE)
  if (length(hit)) as.numeric(sub("^[^=]*=", "", hit[1])) else default
}
threads <- arg("threads", 2)
reps <- arg("reps", 3)
ntree <- arg("ntree", 100)
parts <- strsplit(as.character(arg("parts", 1234)), "")[[1]]
say <- function(...) cat(sprintf(...), "\n", sep = "")

f_true <- function(x) 1.2 * cos(2 * pi * x$x1) + 1.2 * (x$x2 > 0.5) * (x$x3 > 0.5) - 0.5
sim_population <- function(n, p = 5) {
  x <- as.data.frame(matrix(runif(n * p), n, p, dimnames = list(NULL, paste0("x", seq_len(p)))))
  x$T <- rexp(n, exp(f_true(x)))
  x
}
sim_truncated <- function(n) {
  out <- NULL
  while (is.null(out) || nrow(out) < n) {
    pop <- sim_population(3 * n)
    pop$entry <- runif(nrow(pop), 0, 1.5)
    pop <- pop[pop$T > pop$entry, ]
    cens <- pop$entry + rexp(nrow(pop), 0.25)
    pop$exit <- pmin(pop$T, cens)
    pop$event <- as.integer(pop$T <= cens)
    out <- rbind(out, pop)
  }
  out[seq_len(n), ]
}
step_at <- function(times, surv, at) cbind(1, surv)[, findInterval(at, times) + 1L, drop = FALSE]

say("svforest %s, %d trees, %d threads; %s", as.character(utils::packageVersion("svforest")), ntree, threads,
    format(Sys.time(), "%Y-%m-%d"))
say("")
if ("1" %in% parts) {
say("1. Left-truncated simulation: n = 1000 observed, entry U(0, 1.5) (seen when T > entry), hazard exp(f(x)),")
say("   f = 1.2 cos(2 pi x1) + 1.2 [x2 > .5][x3 > .5] - 0.5, five U(0,1) predictors; MSE of S(t | x) to the truth")
say("   over 500 untruncated test subjects at the observed exits' 10%%..90%% quantiles (9 times)")
res1 <- NULL
for (r in seq_len(reps)) {
  set.seed(100 + r)
  d <- sim_truncated(1000)
  test <- sim_population(500)
  at <- stats::quantile(d$exit, seq(0.1, 0.9, by = 0.1), names = FALSE)
  truth <- exp(-outer(exp(f_true(test)), at))
  form <- Surv(entry, exit, event) ~ x1 + x2 + x3 + x4 + x5
  fit <- svforest(form, data = d, ntree = ntree, seed = r, num_threads = threads)
  naive <- svforest(Surv(exit, event) ~ x1 + x2 + x3 + x4 + x5, data = d, ntree = ntree, seed = r, num_threads = threads)
  cox <- coxph(form, data = d)
  s_cox <- t(summary(survfit(cox, newdata = test), times = at, extend = TRUE)$surv)
  mse <- function(s) mean((s - truth)^2)
  row <- c(forest = mse(predict(fit, test, times = at)), ignoring_entry = mse(predict(naive, test, times = at)),
           coxph = mse(s_cox))
  say("   rep %d: forest %.5f, forest ignoring entry %.5f, coxph %.5f", r, row[1], row[2], row[3])
  res1 <- rbind(res1, row)
}
m1 <- colMeans(res1)
say("   mean:  forest %.5f, forest ignoring entry %.5f (ratio %.3f), coxph %.5f (ratio %.3f)", m1[1], m1[2],
    m1[1] / m1[2], m1[3], m1[1] / m1[3])
say("")

}
if ("2" %in% parts) {
say("2. flchain on the age time scale: Surv(age, age + futime / 365.25, death) ~ sex + sample.yr + kappa +")
say("   lambda + flc.grp + creatinine + mgus, complete cases; random 70/30 splits, held-out Harrell's C")
fl <- survival::flchain
fl <- fl[stats::complete.cases(fl[c("sex", "sample.yr", "kappa", "lambda", "flc.grp", "creatinine", "mgus")]), ]
fl$entry <- fl$age
fl$exit <- fl$age + pmax(fl$futime, 0.5) / 365.25
fl$event <- fl$death
form <- Surv(entry, exit, event) ~ sex + sample.yr + kappa + lambda + flc.grp + creatinine + mgus
res2 <- NULL
for (r in seq_len(reps)) {
  set.seed(200 + r)
  train <- sample(nrow(fl), round(0.7 * nrow(fl)))
  tr <- fl[train, ]
  te <- fl[-train, ]
  secs <- system.time(fit <- svforest(form, data = tr, ntree = ntree, seed = r, num_threads = threads))[["elapsed"]]
  cox <- coxph(form, data = tr)
  c_of <- function(risk) concordance(Surv(te$entry, te$exit, te$event) ~ risk, reverse = TRUE)$concordance
  row <- c(forest = c_of(predict(fit, te, type = "risk")), coxph = c_of(predict(cox, te, type = "lp")),
           oob = fit$oob_concordance)
  say("   split %d: %d train / %d test rows: forest C %.4f (out of bag %.4f, fit %.0fs), coxph C %.4f", r, nrow(tr),
      nrow(te), row[1], row[3], secs, row[2])
  res2 <- rbind(res2, row)
}
m2 <- colMeans(res2)
say("   mean: forest %.4f, coxph %.4f, difference %+.4f", m2[1], m2[2], m2[1] - m2[2])
say("")

}
if ("3" %in% parts) {
say("3. id: each subject's follow-up split at a random time into two counting-process rows, (0, u] censored and")
say("   (u, exit]; n = 1000 subjects (right-censored, hazard exp(f(x))), 1000 test subjects one row each")
res3 <- NULL
for (r in seq_len(reps)) {
  set.seed(300 + r)
  mk <- function(n) {
    d <- sim_population(n)
    cens <- rexp(n, 0.25)
    d$exit <- pmin(d$T, cens)
    d$event <- as.integer(d$T <= cens)
    d$id <- seq_len(n)
    d
  }
  d <- mk(1000)
  test <- mk(1000)
  u <- d$exit * runif(nrow(d), 0.2, 0.8)
  keep <- c("id", paste0("x", 1:5))
  split <- rbind(data.frame(d[keep], entry = 0, exit = u, event = 0L),
                 data.frame(d[keep], entry = u, exit = d$exit, event = d$event))
  one <- svforest(Surv(exit, event) ~ x1 + x2 + x3 + x4 + x5, data = d, ntree = ntree, seed = r, num_threads = threads)
  with_id <- svforest(Surv(entry, exit, event) ~ x1 + x2 + x3 + x4 + x5, data = split, id = "id", ntree = ntree,
                      seed = r, num_threads = threads)
  no_id <- svforest(Surv(entry, exit, event) ~ x1 + x2 + x3 + x4 + x5, data = split, ntree = ntree, seed = r,
                    num_threads = threads)
  held <- function(fit) concordance(Surv(test$exit, test$event) ~ predict(fit, test, type = "risk"),
                                    reverse = TRUE)$concordance
  row <- c(one_held = held(one), one_oob = one$oob_concordance, id_held = held(with_id),
           id_oob = with_id$oob_concordance, noid_held = held(no_id), noid_oob = no_id$oob_concordance)
  say("   rep %d: one row: held-out %.4f, OOB %.4f | two rows, id: held-out %.4f, OOB %.4f | two rows, no id: held-out %.4f, OOB %.4f",
      r, row[1], row[2], row[3], row[4], row[5], row[6])
  res3 <- rbind(res3, row)
}
m3 <- colMeans(res3)
say("   mean: one row: held-out %.4f, OOB %.4f (optimism %+.4f) | id: held-out %.4f (%+.4f vs one row), OOB %.4f (optimism %+.4f) | no id: held-out %.4f, OOB %.4f (optimism %+.4f)",
    m3[1], m3[2], m3[2] - m3[1], m3[3], m3[3] - m3[1], m3[4], m3[4] - m3[3], m3[5], m3[6], m3[6] - m3[5])
}

if ("4" %in% parts) {
say("")
say("4. Competing risks with delayed entry: n = 1000 observed, entry U(0, 1.5) (seen when min(T1, T2) > entry),")
say("   cause hazards exp(f1(x)), f1 = 1.2 cos(2 pi x1) - 0.7, and exp(f2(x)), f2 = 0.9 [x2 > .5] - 0.9 x3 - 0.4;")
say("   MSE of each cause's CIF(t | x) to the truth over 500 untruncated test subjects at the observed exits'")
say("   10%%..90%% quantiles (9 times); the forest with entry vs the same forest ignoring entry")
f1 <- function(x) 1.2 * cos(2 * pi * x$x1) - 0.7
f2 <- function(x) 0.9 * (x$x2 > 0.5) - 0.9 * x$x3 - 0.4
res4 <- NULL
for (r in seq_len(reps)) {
  set.seed(400 + r)
  pop <- as.data.frame(matrix(runif(3000 * 5), 3000, 5, dimnames = list(NULL, paste0("x", 1:5))))
  t1 <- rexp(3000, exp(f1(pop)))
  t2 <- rexp(3000, exp(f2(pop)))
  pop$entry <- runif(3000, 0, 1.5)
  seen <- pmin(t1, t2) > pop$entry
  d <- pop[seen, ][1:1000, ]
  t1 <- t1[seen][1:1000]
  t2 <- t2[seen][1:1000]
  cens <- d$entry + rexp(1000, 0.25)
  d$exit <- pmin(t1, t2, cens)
  d$cause <- factor(ifelse(cens <= pmin(t1, t2), 0L, ifelse(t1 < t2, 1L, 2L)), 0:2, c("censored", "one", "two"))
  test <- as.data.frame(matrix(runif(500 * 5), 500, 5, dimnames = list(NULL, paste0("x", 1:5))))
  at <- stats::quantile(d$exit, seq(0.1, 0.9, by = 0.1), names = FALSE)
  l1 <- exp(f1(test))
  l2 <- exp(f2(test))
  truth <- list(one = (l1 / (l1 + l2)) * (1 - exp(-outer(l1 + l2, at))),
                two = (l2 / (l1 + l2)) * (1 - exp(-outer(l1 + l2, at))))
  fit <- svforest(Surv(entry, exit, cause) ~ x1 + x2 + x3 + x4 + x5, data = d, ntree = ntree, seed = r,
                  num_threads = threads)
  naive <- svforest(Surv(exit, cause) ~ x1 + x2 + x3 + x4 + x5, data = d, ntree = ntree, seed = r,
                    num_threads = threads)
  mse <- function(f, k) mean((predict(f, test, type = "cif", cause = k, times = at) - truth[[k]])^2)
  row <- c(forest_one = mse(fit, "one"), naive_one = mse(naive, "one"), forest_two = mse(fit, "two"),
           naive_two = mse(naive, "two"))
  say("   rep %d: cause one: forest %.5f, ignoring entry %.5f | cause two: forest %.5f, ignoring entry %.5f",
      r, row[1], row[2], row[3], row[4])
  res4 <- rbind(res4, row)
}
m4 <- colMeans(res4)
say("   mean: cause one: forest %.5f, ignoring entry %.5f (ratio %.3f) | cause two: forest %.5f, ignoring entry %.5f (ratio %.3f)",
    m4[1], m4[2], m4[1] / m4[2], m4[3], m4[4], m4[3] / m4[4])
}

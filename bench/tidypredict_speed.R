# Benchmark: tidypredict's SQL of a forest (tidypredict::tidypredict_sql(),
# R/tidypredict.R) beside predict() and svforest_sql(): a 100-tree default
# regression forest fitted on 1,000 rows scores 10,000 new rows (missing
# values, filled as in training, and a factor) in SQLite and in a throwaway PostgreSQL server (as
# the tests start it; skipped where it cannot start; SET jit = off, see
# ?svforest_sql): the time tidypredict_sql() takes, the expression's size,
# each database's query time, the largest difference from predict(), and
# the R path (tidypredict_to_column() on a data frame).
#
# Usage (from the repository root):
#   Rscript bench/tidypredict_speed.R [--rows=10000] [--ntree=100]
# Results: bench/results/tidypredict_speed.txt (the command on its first line).
suppressPackageStartupMessages(library(svforest))
args <- commandArgs(trailingOnly = TRUE)
opt <- function(name, default) {
  hit <- grep(sprintf("^--%s=", name), args, value = TRUE)
  if (length(hit)) as.numeric(sub("^[^=]*=", "", hit[1])) else default
}
rows <- opt("rows", 10000)
ntree <- opt("ntree", 100)
source("tests/testthat/helper-sql.R")

# (training rows complete: tidypredict's expressions do not hold the
# conditional-mean imputation a fit on missing values would learn)
make_data <- function(n, seed, missing = TRUE) {
  set.seed(seed)
  d <- data.frame(a = rnorm(n), b = rexp(n), c = runif(n), f = factor(sample(c("u", "v", "w", "z"), n, TRUE)))
  d$y <- d$a + log1p(d$b) + (d$f == "v") + 2 * d$c + rnorm(n, sd = 0.3)
  if (missing) {
    d$a[sample(n, n %/% 20)] <- NA
    d$f[sample(n, n %/% 25)] <- NA
  }
  d
}

server <- start_postgres()
if (is.character(server)) message("PostgreSQL: ", server)
if (is.list(server)) invisible(reg.finalizer(environment(), function(e) stop_postgres(server), onexit = TRUE))
lite <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
load <- tryCatch(readLines("/proc/loadavg", n = 1L), error = function(e) "unknown")
cat(sprintf("tidypredict_sql() vs predict(): %d new rows, %d-tree default regression forest, 1000 training rows; SQLite %s\n",
            rows, ntree, RSQLite::rsqliteVersion()[["library"]]))
cat(sprintf("machine: %d cores, load average (1, 5, 15 min) at the start: %s\n", parallel::detectCores(),
            paste(strsplit(load, " ")[[1]][1:3], collapse = ", ")))
fit <- svforest(y ~ ., data = make_data(1000, 1, missing = FALSE), ntree = ntree, seed = 1, num_threads = 1)
new <- make_data(rows, 2)
new$y <- NULL
truth <- suppressWarnings(predict(fit, new, num_threads = 1))
t_pred <- system.time(suppressWarnings(predict(fit, new, num_threads = 1)))[["elapsed"]]
cat(sprintf("  predict(), 1 thread:                 %7.2f s\n", t_pred))
DBI::dbWriteTable(lite, "new", new, overwrite = TRUE)
t_fit <- system.time(f <- tidypredict::tidypredict_fit(fit))[["elapsed"]]
t_sql <- system.time(sql <- tidypredict::tidypredict_sql(fit, lite))[["elapsed"]]
cat(sprintf("  tidypredict_fit(): %.2f s; tidypredict_sql(): %.2f s (a %.1f MB expression)\n", t_fit, t_sql, nchar(sql) / 1e6))
run <- system.time(res <- DBI::dbGetQuery(lite, paste("SELECT", sql, "AS p FROM new")))[["elapsed"]]
cat(sprintf("  SQLite query:                        %7.2f s; largest difference from predict() %.3g\n", run, max(abs(res$p - truth))))
run <- system.time(res <- DBI::dbGetQuery(lite, svforest_sql(fit, "new")))[["elapsed"]]
cat(sprintf("  (svforest_sql() in SQLite:           %7.2f s; %.3g)\n", run, max(abs(res$.pred - truth))))
if (is.list(server)) {
  pg <- server$con
  DBI::dbExecute(pg, "SET jit = off")
  DBI::dbWriteTable(pg, "new", new, overwrite = TRUE, row.names = FALSE)
  run <- system.time(res <- DBI::dbGetQuery(pg, paste("SELECT", sql, "AS p FROM new")))[["elapsed"]]
  cat(sprintf("  PostgreSQL query (jit off):          %7.2f s; largest difference from predict() %.3g\n", run,
              max(abs(res$p - truth))))
}
r_path <- system.time(col <- tidypredict::tidypredict_to_column(new, fit))[["elapsed"]]
cat(sprintf("  tidypredict_to_column() (R):         %7.2f s; largest difference from predict() %.3g\n", r_path,
            max(abs(col$fit - truth))))

# Benchmark: svforest_sql() against predict() for 10,000 rows scored by a
# 100-tree default forest fitted on 1,000 rows, classification and
# regression: the statement's size, the time SQLite takes (materialize TRUE
# and FALSE), PostgreSQL's time (a throwaway server, as the tests start it;
# skipped where it cannot start), the largest difference from predict(),
# and peak memory (this R process's, which holds SQLite, and the PostgreSQL
# backend's, both VmHWM from /proc).
#
# Usage (from the repository root):
#   Rscript bench/sql_speed.R [--rows=10000] [--ntree=100] [--pg-jit=0]
# PostgreSQL runs with `SET jit = off` unless --pg-jit=1: its JIT compiles
# the statement's large expressions with LLVM (inlining and optimization,
# as the plan's cost passes jit_inline_above_cost), which took 591 s and a
# 4 GB backend for the default case (see ?svforest_sql).
# Results: bench/results/sql_speed.txt (the command on its first line).
suppressPackageStartupMessages(library(svforest))
args <- commandArgs(trailingOnly = TRUE)
opt <- function(name, default) {
  hit <- grep(sprintf("^--%s=", name), args, value = TRUE)
  if (length(hit)) as.numeric(sub("^[^=]*=", "", hit[1])) else default
}
rows <- opt("rows", 10000)
ntree <- opt("ntree", 100)
pg_jit <- opt("pg-jit", 0) != 0
source("tests/testthat/helper-sql.R")

peak_mb <- function(pid = Sys.getpid()) {
  status <- tryCatch(readLines(sprintf("/proc/%d/status", pid)), error = function(e) character())
  hwm <- grep("^VmHWM:", status, value = TRUE)
  if (!length(hwm)) return(NA_real_)
  as.numeric(gsub("[^0-9]", "", hwm)) / 1024
}

make_data <- function(n, seed, outcome) {
  set.seed(seed)
  d <- data.frame(a = rnorm(n), b = rexp(n), c = runif(n), f = factor(sample(c("u", "v", "w", "z"), n, TRUE)),
                  h = rnorm(n) > 0)
  score <- d$a + log1p(d$b) + (d$f == "v") - 0.5 * d$h + 2 * d$c + rnorm(n, sd = 0.3)
  d$y <- if (outcome == "classification") cut(score, c(-Inf, 0.8, 2, Inf), labels = c("lo", "mid", "hi")) else score
  d$a[sample(n, n %/% 20)] <- NA
  d$f[sample(n, n %/% 25)] <- NA
  d
}

gap <- function(res, fit, new) {
  if (fit$type == "regression") return(max(abs(res$.pred - predict(fit, new, num_threads = 1))))
  prob <- predict(fit, new, type = "prob", num_threads = 1)
  c(prob = max(abs(as.matrix(res[, paste0(".pred_", colnames(prob))]) - prob)),
    classes_differ = sum(res$.pred_class != as.character(predict(fit, new, num_threads = 1))))
}

server <- start_postgres()
if (is.character(server)) message("PostgreSQL: ", server)
# the server stops however the script ends (an error, or R quitting)
if (is.list(server)) invisible(reg.finalizer(environment(), function(e) stop_postgres(server), onexit = TRUE))
lite <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
cat(sprintf("svforest_sql() vs predict(): %d new rows, %d-tree default forest, 1000 training rows; SQLite %s\n",
            rows, ntree, RSQLite::rsqliteVersion()[["library"]]))
load <- tryCatch(readLines("/proc/loadavg", n = 1L), error = function(e) "unknown")
cat(sprintf("machine: %d cores, load average (1, 5, 15 min) at the start: %s\n", parallel::detectCores(),
            paste(strsplit(load, " ")[[1]][1:3], collapse = ", ")))
for (outcome in c("classification", "regression")) {
  fit <- svforest(y ~ ., data = make_data(1000, 1, outcome), ntree = ntree, seed = 1, num_threads = 1)
  new <- make_data(rows, 2, outcome)
  new$y <- NULL
  stored <- new
  stored$h <- as.integer(stored$h)  # logicals as 0/1
  depth <- vapply(seq_len(ntree), function(t) max(svforest_tree(fit, t)$depth), 0)
  cat(sprintf("\n%s (method %s, tree depth %d to %d)\n", outcome, fit$method, min(depth), max(depth)))
  t_pred <- system.time(predict(fit, new, num_threads = 1))[["elapsed"]]
  cat(sprintf("  predict(), 1 thread:                  %6.2f s\n", t_pred))
  DBI::dbWriteTable(lite, "new", stored, overwrite = TRUE)
  for (mat in c(TRUE, FALSE)) {
    gen <- system.time(sql <- svforest_sql(fit, "new", materialize = mat))
    run <- system.time(res <- DBI::dbGetQuery(lite, sql))
    t_gen <- gen[["elapsed"]]
    t_run <- run[["elapsed"]]
    g <- suppressWarnings(gap(res, fit, new))
    cat(sprintf("  SQLite, materialize = %-5s: %6.2f s (writing the %.1f MB statement %.2f s); %s; R+SQLite peak %.0f MB\n",
                mat, t_run, nchar(sql) / 1e6, t_gen, paste(names(g), signif(g, 3), sep = " ", collapse = ", "),
                peak_mb()))
    # elapsed time depends on the machine's load; CPU time of this process (which runs SQLite) less so
    cat(sprintf("    writing + query: %.2f s elapsed, %.2f s CPU\n", t_gen + t_run,
                gen[["user.self"]] + gen[["sys.self"]] + run[["user.self"]] + run[["sys.self"]]))
    if (is.list(server)) {
      DBI::dbWriteTable(server$con, "new", stored, overwrite = TRUE, row.names = FALSE)
      # a fresh backend per query, so that its peak memory is this query's
      DBI::dbDisconnect(server$con)
      server$con <- DBI::dbConnect(RPostgreSQL::PostgreSQL(), host = server$dir, port = server$port,
                                   user = "svforest", dbname = "postgres")
      if (!pg_jit) DBI::dbExecute(server$con, "SET jit = off")
      pid <- DBI::dbGetQuery(server$con, "SELECT pg_backend_pid() AS pid")$pid
      t_pg <- system.time(res <- DBI::dbGetQuery(server$con, sql))[["elapsed"]]
      g <- suppressWarnings(gap(res, fit, new))
      cat(sprintf("  PostgreSQL (jit %s), materialize = %-5s: %6.2f s; %s; backend peak %.0f MB\n", if (pg_jit) "on" else "off", mat, t_pg,
                  paste(names(g), signif(g, 3), sep = " ", collapse = ", "), peak_mb(pid)))
    }
  }
}
DBI::dbDisconnect(lite)

# The one harness results table, bench/results/harness.csv: every row the
# harness has scored, one per commit x dataset x method x seed x split
# x metric (the key), the commit as text (a short hash such as 1e61918 is not a
# number). Sourced by bench/harness.R after bench_common.R.

harness_columns <- c("commit", "dataset", "task", "n_train", "n_test", "p", "method", "seed", "split",
                     "metric", "value", "fit_s", "fit_cpu_s", "predict_s", "predict10k_s", "model_mb", "oob")
harness_key <- c("commit", "dataset", "method", "seed", "split", "metric")

harness_table_path <- function() results_csv("harness")

harness_key_of <- function(rows) do.call(paste, c(unname(as.list(rows[harness_key])), sep = "\r"))

# A harness results csv (the table or a run's side file) in the table's
# columns, commit and names read as text. Files written before the harness
# scored repeated splits have no split column: their one split was the
# registry's, split 1; files before fit_cpu_s get NA there.
read_harness_csv <- function(path) {
  if (!file.exists(path)) stop("no harness results file ", path, call. = FALSE)
  text_cols <- c(commit = "character", dataset = "character", task = "character",
                 method = "character", metric = "character")
  header <- names(utils::read.csv(path, nrows = 1L, check.names = FALSE))
  d <- utils::read.csv(path, colClasses = text_cols[intersect(names(text_cols), header)],
                       stringsAsFactors = FALSE)
  if (!"split" %in% names(d)) d$split <- rep(1L, nrow(d))
  if (!"fit_cpu_s" %in% names(d)) d$fit_cpu_s <- rep(NA_real_, nrow(d))
  missing <- setdiff(harness_columns, names(d))
  if (length(missing)) stop(path, " is not a harness results file (no column ", paste(missing, collapse = ", "), ")",
                            call. = FALSE)
  # an older --merge read hashes such as 1e61918 as numbers and wrote "Inf"
  bad <- unique(d$commit[!grepl("^([0-9a-f]{4,40}|unknown)$", d$commit)])
  if (length(bad)) stop(path, ": commit ", paste(utils::head(bad, 3), collapse = ", "),
                        " is not a hash (read as a number once?); fix the column before using the file", call. = FALSE)
  d[harness_columns]
}

# Serialises writers of the table: two harness runs in one checkout append
# to the same file. A lock older than 10 minutes is a crashed writer's.
with_table_lock <- function(path, code) {
  lock <- paste0(path, ".lock")
  waited <- 0
  while (!dir.create(lock, showWarnings = FALSE)) {
    age <- as.numeric(difftime(Sys.time(), file.mtime(lock), units = "secs"))
    if (!is.na(age) && age > 600) unlink(lock, recursive = TRUE)
    if (waited > 300) stop("the results table is locked (", bench_relpath(lock), "); remove it if no run is writing",
                           call. = FALSE)
    Sys.sleep(0.2)
    waited <- waited + 0.2
  }
  on.exit(unlink(lock, recursive = TRUE))
  force(code)
}

# Adds rows to the table, replacing its rows of the same key (a re-run of
# the same commit); returns c(added, replaced) invisibly.
harness_table_add <- function(rows, path = harness_table_path()) {
  rows <- rows[harness_columns]
  rows <- rows[!duplicated(harness_key_of(rows), fromLast = TRUE), , drop = FALSE]
  with_table_lock(path, {
    old <- if (file.exists(path)) read_harness_csv(path) else rows[0, , drop = FALSE]
    replaced <- harness_key_of(old) %in% harness_key_of(rows)
    table <- rbind(old[!replaced, , drop = FALSE], rows)
    tmp <- paste0(path, ".tmp")
    utils::write.csv(table, tmp, row.names = FALSE)
    file.rename(tmp, path)
  })
  invisible(c(added = nrow(rows) - sum(replaced), replaced = sum(replaced)))
}

# The rows of a list of picks, each a commit of the table (or a prefix of
# it of at least 4 hex digits) or the name or path of a results csv; a data
# set's rows under a later pick replace its rows under earlier ones (a
# re-run of the sets a change touches on a later commit).
harness_select <- function(picks, table) {
  selected <- table[0, , drop = FALSE]
  for (pick in picks) {
    prefix <- grepl("^[0-9a-f]{4,40}$", pick) & (startsWith(table$commit, pick) | startsWith(pick, table$commit))
    rows <- table[table$commit == pick | prefix, , drop = FALSE]
    if (!nrow(rows)) {
      file <- if (file.exists(pick)) pick else results_csv(pick)
      if (!file.exists(file)) stop("no rows of commit ", pick, " in the results table and no results file ",
                                   bench_relpath(file), call. = FALSE)
      rows <- read_harness_csv(file)
    }
    selected <- rbind(selected[!selected$dataset %in% rows$dataset, , drop = FALSE], rows)
  }
  selected
}

# --- summary: svforest's default against the peers (means over splits and seeds)

harness_summary <- function(res) {
  counts <- table(factor(res$commit, levels = unique(res$commit)))
  say(sprintf("rows: %s\n", paste(sprintf("%s (%d)", names(counts), counts), collapse = ", ")))
  agg <- stats::aggregate(cbind(value, fit_s, fit_cpu_s, predict10k_s, model_mb) ~ dataset + task + method,
                          data = res, FUN = mean, na.action = stats::na.pass)
  for (task in c("classification", "regression")) summarise_task(agg, task)
}

summarise_task <- function(agg, task) {
  wide <- function(col, method) stats::setNames(agg[agg$method == method, col], agg$dataset[agg$method == method])
  sets <- unique(agg$dataset[agg$task == task & agg$method == "svforest"])
  sets <- intersect(sets, agg$dataset[agg$method == "ranger"])
  if (!length(sets)) return(invisible())
  ours <- wide("value", "svforest")[sets]
  rng <- wide("value", "ranger")[sets]
  say(sprintf("\n== %s: %d data sets (svforest default vs ranger-500) ==\n", task, length(sets)))
  if (task == "classification") {
    d <- 100 * (ours - rng)
    say(sprintf("accuracy >= ranger on %d of %d (%.0f%%); worst %+.2f points (%s); mean %+.2f points (svforest %.4f, ranger %.4f)\n",
                sum(d >= -1e-9), length(d), 100 * mean(d >= -1e-9), min(d), names(d)[which.min(d)], mean(d),
                mean(ours), mean(rng)))
    for (nm in sets) say(sprintf("  %-20s svforest %.4f  ranger %.4f  %+6.2f\n", nm, ours[nm], rng[nm], d[nm]))
  } else {
    ratio <- ours / rng
    say(sprintf("rmse <= ranger on %d of %d (%.0f%%); worst %+.1f%% (%s)\n", sum(ratio <= 1 + 1e-9), length(ratio),
                100 * mean(ratio <= 1 + 1e-9), 100 * (max(ratio) - 1), names(ratio)[which.max(ratio)]))
    llf <- wide("value", "grf_llf")
    cub <- wide("value", "cubist")
    both <- intersect(sets, names(llf))
    if (length(both)) say(sprintf("rmse <= grf local linear forest on %d of %d\n", sum(ours[both] <= llf[both]), length(both)))
    for (nm in sets) say(sprintf("  %-20s svforest %.4g  ranger %.4g (%+.1f%%)  llf %s  cubist %s\n", nm, ours[nm], rng[nm],
                                 100 * (ratio[nm] - 1), if (nm %in% names(llf)) format(llf[nm], digits = 4) else "-",
                                 if (nm %in% names(cub)) format(cub[nm], digits = 4) else "-"))
  }
  orsf <- wide("value", "aorsf")
  both <- intersect(sets, names(orsf))
  if (length(both)) {
    at_least <- if (task == "classification") ours[both] >= orsf[both] - 1e-9 else ours[both] <= orsf[both] + 1e-9
    say(sprintf("%s aorsf-500 on %d of %d (%.0f%%): %s\n", if (task == "classification") "accuracy >=" else "rmse <=",
                sum(at_least), length(both), 100 * mean(at_least),
                paste(sprintf("%s %s", both, format(orsf[both], digits = 4)), collapse = ", ")))
  }
  fit_ratio <- wide("fit_s", "svforest")[sets] / wide("fit_s", "ranger")[sets]
  cpu_ratio <- wide("fit_cpu_s", "svforest")[sets] / wide("fit_cpu_s", "ranger")[sets]
  pred_ratio <- wide("predict10k_s", "svforest")[sets] / wide("predict10k_s", "ranger")[sets]
  size_ratio <- wide("model_mb", "svforest")[sets] / wide("model_mb", "ranger")[sets]
  if (any(!is.na(cpu_ratio)))
    say(sprintf("fit CPU time / ranger: median %.2f (max %.2f, %s)\n", stats::median(cpu_ratio, na.rm = TRUE),
                max(cpu_ratio, na.rm = TRUE), names(cpu_ratio)[which.max(cpu_ratio)]))
  say(sprintf("fit time / ranger: median %.2f (max %.2f, %s); predict 10k / ranger: median %.2f, max %.2f (%s); model size / ranger: max %.2f (%s)\n",
              stats::median(fit_ratio), max(fit_ratio), names(fit_ratio)[which.max(fit_ratio)],
              stats::median(pred_ratio), max(pred_ratio), names(pred_ratio)[which.max(pred_ratio)],
              max(size_ratio), names(size_ratio)[which.max(size_ratio)]))
}

# A test-only post-fit stage: with `record_rows = TRUE` the model keeps the
# number of rows the trees saw and the outcome's mean on them. Defined by
# this file alone; test-registries.R registers it with one call (and removes
# it again, so that the other tests see the package's own stages).
rows_seen_stage <- list(
  name = "rows_seen",
  field = "rows_seen",
  args = "record_rows",
  setup = function(args, y, outcome, seed) if (isTRUE(args$record_rows)) list(),
  run = function(model, settings, data) list(rows = nrow(data$x), mean_y = mean(as.numeric(data$y))),
  check = function(value, model) is.list(value) && is.numeric(value$rows) && length(value$rows) == 1,
  print_line = function(model) if (!is.null(model$rows_seen)) sprintf("  Rows seen by the trees: %d", model$rows_seen$rows)
)

# Post-fit stages: what svforest() does with a grown forest (permutation
# importance, calibration, ...). Each stage is a list defined in its own
# file, holding everything about it: the svforest() arguments it takes, the
# rows it holds out from the trees, what it computes after the fit, the
# check of its part of the model, its print line, its combine() rule and its
# effect on predicted probabilities. fit_forest() (R/svforest.R),
# predict() (R/predict.R), check_model() (R/model-check.R),
# combine() (R/combine.R) and print() only iterate over svf_stages(): a new
# stage is its own file plus one line here, or a register_stage() call.
#
# A stage is list(
#   name,      the stage's name
#   field,     the model element holding its result (NULL: none)
#   args,      the svforest() arguments it takes (matched by exact name)
#   setup,     function(args, y, outcome, seed): its settings from those
#              arguments, or NULL when it does not run; may hold rows out of
#              the fit as `held` (indices into y), passed back to run()
#   prepare,   optional function(settings, params, outcome): checks the
#              settings against the fit's parameters (before the engine runs)
#   run,       function(model, settings, data): the value stored in
#              model[[field]]; data = list(x, y (the trees' rows, design
#              matrix and outcome), held_x, held_y (the stage's own held-out
#              rows, design matrices as the engine sees them), num_threads,
#              splitter_uses_oob (the engine's word on whether out-of-bag
#              rows chose splits or trees), fit_rows (function(rows): a
#              forest grown as the model's on those rows of x alone, as
#              list(forest, scaling)), oob_rows (NULL or, per tree, the
#              1-based rows of x that scored it out of bag), training_leaves
#              (NULL or the engine's record of each row's leaf in each tree,
#              engine_fit()))
#   check,     optional function(value, model): FALSE when a stored value is
#              damaged (check_model())
#   print_line, optional function(model): a line for print(), or NULL
#   combine,   function(out, parts): the combined model `out` with the
#              stage's element set from the parts (default: dropped)
#   predict_prob, optional function(prob, value): the probabilities
#              predict(type = "prob") returns, from the forest's)
svf_stages <- function() {
  c(list(
    importance_stage,   # R/stage-importance.R
    conformal_stage,    # R/stage-conformal.R
    calibration_stage   # R/stage-calibration.R
  ), unname(stage_registry$added))
}

# The model fields the stages write (R/model.R lets only these names, and
# the families' fields, be added to a model).
stage_field_names <- function() unlist(lapply(svf_stages(), `[[`, "field"), use.names = FALSE)

# Stages added after the package's own (e.g. by another package or a test),
# run after them in the order added; a stage of the same name replaces the
# earlier one.
stage_registry <- new.env(parent = emptyenv())
stage_registry$added <- list()

register_stage <- function(...) {
  stage <- new_stage(...)
  stage_registry$added[[stage$name]] <- stage
  invisible(stage$name)
}

# Removes an added stage (e.g. at the end of a test); models that hold its
# element keep it, unchecked.
remove_stage <- function(name) {
  stage_registry$added[[name]] <- NULL
  invisible(name)
}

# The stage fields a new stage may leave out.
stage_defaults <- list(
  field = NULL, args = character(), prepare = NULL, check = NULL, print_line = NULL, predict_prob = NULL,
  combine = function(out, parts) out
)

new_stage <- function(...) {
  stage <- utils::modifyList(stage_defaults, list(...))
  if (!is.null(stage$field) && is.null(list(...)$combine)) {
    # by default a combined forest drops the parts' results (they describe other trees)
    field <- stage$field
    stage$combine <- function(out, parts) {
      out[[field]] <- NULL
      out
    }
  }
  stage
}

# Before the fit: each stage's settings from the user's arguments (taken out
# of `user`, so they are never parameters), and the rows each holds out
# (indices into the rows of `y`, each stage drawing from the rows the
# earlier ones left). Returns list(user, settings (by stage name, NULL for a
# stage that does not run), held (by stage name), held_all).
stage_setup <- function(user, y, outcome, seed) {
  settings <- list()
  held <- list()
  remaining <- seq_along(y)
  for (stage in svf_stages()) {
    args <- stats::setNames(lapply(stage$args, function(a) user[[a]]), stage$args)
    s <- stage$setup(args, y[remaining], outcome, seed)
    if (!is.null(s$held)) {
      held[[stage$name]] <- remaining[s$held]
      remaining <- remaining[-s$held]
    }
    settings[stage$name] <- list(s)
  }
  # taken out only after every stage has read them: two stages may share an
  # argument (`calibrate`: class probabilities, or regression intervals)
  for (stage in svf_stages()) for (a in stage$args) user[[a]] <- NULL
  list(user = user, settings = settings, held = held, held_all = sort(unlist(held, use.names = FALSE)))
}

# Checks of the stages' settings against the fit's parameters.
stage_prepare <- function(stages, params, outcome) {
  for (stage in svf_stages()) {
    s <- stages$settings[[stage$name]]
    if (!is.null(s) && !is.null(stage$prepare)) stages$settings[stage$name] <- list(stage$prepare(s, params, outcome))
  }
  stages
}

# After the fit, in order: each running stage's result in the model.
run_stages <- function(model, stages, data) {
  for (stage in svf_stages()) {
    s <- stages$settings[[stage$name]]
    if (is.null(s)) next
    own <- stages$held_x[[stage$name]]
    value <- stage$run(model, s, c(data, list(held_x = own, held_y = stages$held_y[[stage$name]])))
    if (!is.null(stage$field)) {
      results <- section_of(model, "stages")
      results[stage$field] <- list(value)
      model$stages <- new_stages_section(results)
    }
  }
  model
}

# The model's `stages` section (R/model.R): each stage's result under its
# field's name; written by run_stages() alone (and read by their names).
new_stages_section <- function(results = list()) results

check_stages_section <- function(object, fail) {
  if (!is.list(section_of(object, "stages"))) fail("'stages' is damaged")
  damaged <- stage_damage(object)
  if (!is.null(damaged)) fail(sprintf("'%s' is damaged", damaged))
}

# The stages' checks of a model (check_model()): the first damaged element,
# or NULL.
stage_damage <- function(object) {
  for (stage in svf_stages()) {
    if (is.null(stage$check) || is.null(stage$field)) next
    value <- object[[stage$field]]
    if (!is.null(value) && !isTRUE(stage$check(value, object))) return(stage$field)
  }
  NULL
}

# predict(type = "prob"): the forest's probabilities through the stages.
stage_probabilities <- function(object, prob) {
  for (stage in svf_stages()) {
    if (is.null(stage$predict_prob) || is.null(stage$field) || is.null(object[[stage$field]])) next
    prob <- stage$predict_prob(prob, object[[stage$field]])
  }
  prob
}

# print(): the stages' lines.
stage_print <- function(x) {
  for (stage in svf_stages()) {
    line <- if (!is.null(stage$print_line)) stage$print_line(x)
    if (!is.null(line)) cat(line, "\n", sep = "")
  }
}

# combine(): the stages' rules, in order.
stage_combine <- function(out, parts) {
  for (stage in svf_stages()) out <- stage$combine(out, parts)
  out
}
